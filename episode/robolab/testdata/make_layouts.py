#!/usr/bin/env python3
"""Writes one small run file in each file layout h5py can give it, under
layouts/ (TestLayouts: each reads with the same demos and verdicts as
default.hdf5, written the same way in h5py's default layout):

    default.hdf5         h5py's defaults (superblock 0, symbol tables)
    latest_demos.hdf5    libver="latest": superblock 3, version 2 object
                         headers, groups of link messages
    dense.hdf5           libver="latest", data/ holding 9 links (the demos
                         and 7 empty groups), so stored densely, and each
                         demo its attributes: a fractal heap indexed by a
                         version 2 B-tree
    userblock.hdf5       userblock_size=512: the superblock at byte 512
    track_order.hdf5     track_order=True for every group: link info and
                         attribute info with creation order, indexed
    userblock_latest.hdf5  both
    chunked_latest.hdf5  libver="latest", RoboLab's own writing (chunked,
                         gzip, maxshape (None, ...), appended at each flush)
                         in chunks of 2 steps: extensible array indexes
                         with data blocks
    chunk_indexes.hdf5   one dataset per chunk index of the version 4
                         layout (TestChunkIndexes): extensible arrays
                         reaching super blocks, fixed arrays (one paged),
                         filtered or not, a single chunk, implicit, and
                         version 2 B-trees (two unlimited dimensions), one
                         with internal nodes
    dense_many.hdf5      libver="latest", the tiny demo below among 300 empty
                         groups of data/, with 200 attributes more: name
                         indexes with internal nodes, fractal heaps whose
                         root is an indirect block (TestDenseMany)
    tiny_<layout>.hdf5   FuzzRunFile's seeds, a few KiB each: one demo of
                         two steps (the apple only, chunked and resizable)
                         in the layouts latest, userblock, track_order and
                         dense, and dense_many (60 links and 42 attributes:
                         index internal nodes, an indirect heap root)

Two short demos, every dataset contiguous, to keep the files small.
Not run in CI: the files it writes are committed. Run it again (Debian's
python3-h5py) after changing it:

    cd episode/robolab/testdata && /usr/bin/python3 make_layouts.py
"""

import json
import os
import shutil

import h5py
import numpy as np

import make_fixtures
from make_fixtures import end_demo, write_demo

KINDS = ("success", "failure")


def dense_group(parent, name):
    """A group storing its attributes densely from the first."""
    gcpl = h5py.h5p.create(h5py.h5p.GROUP_CREATE)
    gcpl.set_attr_phase_change(0, 0)
    h5py.h5g.create(parent.id, name.encode(), gcpl=gcpl)
    return parent[name]


def run(path, dense=False, chunked=False, **file_kw):
    with h5py.File(path, "w", **file_kw) as f:
        data = f.create_group("data")
        if dense:
            # more than 8 links: dense (h5py cannot set the threshold)
            for k in range(7):
                data.create_group(f"extra_{k}")
        data.attrs["total"] = 0
        data.attrs["env_args"] = json.dumps({"env_name": "AppleInBowlTask", "type": 2})
        for k, kind in enumerate(KINDS):
            name = f"demo_{k}"
            g = dense_group(data, name) if dense else data.create_group(name)
            g = write_demo(g, kind, 30, seed=50 + k, image=False, contiguous=not chunked)
            end_demo(data, g, kind != "failure")


def chunk_indexes(path):
    with h5py.File(path, "w", libver="latest") as f:
        def ds(name, n, **kw):
            f.create_dataset(name, data=np.arange(n, dtype=np.int32), **kw)
        ds("earray", 300, chunks=(1,), maxshape=(None,))
        ds("earray_gzip", 300, chunks=(1,), maxshape=(None,), compression="gzip")
        ds("farray", 40, chunks=(4,))
        ds("farray_gzip", 40, chunks=(4,), compression="gzip")
        f.create_dataset("farray_paged", data=np.arange(1100, dtype=np.uint8), chunks=(1,))
        ds("single", 40, chunks=(40,))
        ds("single_gzip", 40, chunks=(40,), compression="gzip")
        # 2-D, the unlimited dimension first: rows of 3 in chunks of 2 × 2
        f.create_dataset("earray_2d", data=np.arange(60, dtype=np.int32).reshape(20, 3), chunks=(2, 2), maxshape=(None, 3))
        # partly written: chunks never written are not stored
        g = f.create_dataset("earray_sparse", shape=(100,), dtype=np.int32, chunks=(5,), maxshape=(None,), fillvalue=0)
        g[50:55] = 7
        # implicit: chunks allocated early, unfiltered (low-level API)
        dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
        dcpl.set_chunk((4,))
        dcpl.set_alloc_time(h5py.h5d.ALLOC_TIME_EARLY)
        sid = h5py.h5s.create_simple((40,))
        h5py.h5d.create(f.id, b"implicit", h5py.h5t.STD_I32LE, sid, dcpl=dcpl)
        f["implicit"][:] = np.arange(40, dtype=np.int32)
        # two unlimited dimensions: a version 2 B-tree index
        f.create_dataset("btree2", data=np.arange(16, dtype=np.int32).reshape(4, 4), chunks=(2, 2), maxshape=(None, None))
        f.create_dataset("btree2_gzip", data=np.arange(400, dtype=np.int32).reshape(20, 20), chunks=(2, 3),
                         maxshape=(None, None), compression="gzip")


def tiny(path, dense=False, many=0, **file_kw):
    with h5py.File(path, "w", **file_kw) as f:
        data = f.create_group("data")
        data.attrs["env_args"] = json.dumps({"env_name": "AppleInBowlTask", "type": 2})
        if dense:
            for k in range(max(8, many)):
                data.create_group(f"extra_{k}")
        g = dense_group(data, "demo_0") if dense else data.create_group("demo_0")
        for k in range(many * 2 // 3):
            g.attrs[f"note_{k:03d}"] = k
        steps = make_fixtures.trajectory("success", 2)
        half, yaw = make_fixtures.BODIES["apple"]
        g.create_dataset("states/rigid_object/apple/root_pose", data=np.array([make_fixtures.pose(s["apple"], yaw) for s in steps]),
                         chunks=True, maxshape=(None, 7), track_times=False)
        mm = [np.rint(np.array(make_fixtures.corners(s["apple"], half, yaw)) * 1000.0) for s in steps]
        g.create_dataset("bbox/bbox_mm/apple", data=np.array(mm, dtype=np.int16), chunks=True, maxshape=(None, 8, 3),
                         track_times=False)
        g.attrs["num_samples"] = 2
        g.attrs["success"] = True


def main():
    shutil.rmtree("layouts", ignore_errors=True)
    os.makedirs("layouts")
    run("layouts/default.hdf5")
    run("layouts/latest_demos.hdf5", libver="latest")
    run("layouts/dense.hdf5", dense=True, libver="latest")
    run("layouts/userblock.hdf5", userblock_size=512)
    run("layouts/userblock_latest.hdf5", userblock_size=512, libver="latest")
    make_fixtures.CHUNK_STEPS = 2
    try:
        run("layouts/chunked_latest.hdf5", chunked=True, libver="latest")
    finally:
        make_fixtures.CHUNK_STEPS = None
    chunk_indexes("layouts/chunk_indexes.hdf5")
    tiny("layouts/tiny_latest.hdf5", libver="latest")
    tiny("layouts/tiny_userblock.hdf5", userblock_size=512)
    tiny("layouts/tiny_dense.hdf5", dense=True, libver="latest")
    tiny("layouts/dense_many.hdf5", dense=True, many=300, libver="latest")
    tiny("layouts/tiny_dense_many.hdf5", dense=True, many=60, libver="latest")
    h5py.get_config().track_order = True
    try:
        run("layouts/track_order.hdf5", track_order=True)
        tiny("layouts/tiny_track_order.hdf5", track_order=True)
    finally:
        h5py.get_config().track_order = False


if __name__ == "__main__":
    main()
