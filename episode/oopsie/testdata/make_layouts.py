#!/usr/bin/env python3
"""Writes ep_single.h5 of session/ again in the file layouts h5py can give
it, under layouts/ (each file's episode and verdicts read as the default
layout's; TestLayouts):

    latest.h5       libver="latest": superblock 3, version 2 object headers,
                    groups of link messages; actions/ (9 links) in dense
                    storage: a fractal heap indexed by a version 2 B-tree
    userblock.h5    userblock_size=512: the superblock at byte 512, every
                    address relative to it
    track_order.h5  track_order=True for every group: link info and
                    attribute info with creation order, indexed
    latest_many.h5  libver="latest" and 12 annotator groups (dense links
                    under episode_annotations)
    userblock_latest.h5  both

And variants/ep_200_groups.h5: session/ep_single.h5 to which h5py added 198
annotator groups (200 in all), as an annotation tool would: the group's
B-tree has internal nodes and its name heap's data segment moved away from
its header (TestAnnotate200Groups).

Not run in CI: the files it writes are committed. Run it again (Debian's
python3-h5py) after changing it:

    cd episode/oopsie/testdata && /usr/bin/python3 make_layouts.py
"""

import json
import os
import shutil

import h5py

from make_fixtures import episode

N = 40
ANNOT = [("human_alice", 1.0, ""), ("human_bob", 0.0, "the apple slipped")]


def main():
    shutil.rmtree("layouts", ignore_errors=True)
    os.makedirs("layouts")
    kw = dict(annotations=ANNOT, episode_id="ep_single")
    episode("layouts/latest.h5", N, libver="latest", **kw)
    episode("layouts/userblock.h5", N, userblock_size=512, **kw)
    episode("layouts/userblock_latest.h5", N, userblock_size=512, libver="latest", **kw)
    h5py.get_config().track_order = True
    try:
        episode("layouts/track_order.h5", N, track_order=True, **kw)
    finally:
        h5py.get_config().track_order = False
    many = [(f"annotator{k:02d}", float(k % 2), "" if k % 2 else "dropped") for k in range(12)]
    episode("layouts/latest_many.h5", N, libver="latest", annotations=many, episode_id="ep_single")
    many_groups("variants/ep_200_groups.h5")


def many_groups(path, n=198):
    shutil.copyfile("session/ep_single.h5", path)
    with h5py.File(path, "a") as f:
        for k in range(n):
            g = f.create_group(f"episode_annotations/tool_{k:03d}")
            g.attrs["source"] = "human"
            g.attrs["success"] = float(k % 2)
            g.attrs["taxonomy"] = json.dumps({"failure_category": "none"})


if __name__ == "__main__":
    main()
