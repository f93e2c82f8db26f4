#!/usr/bin/env python3
"""Writes the hostile and large run files under hostile/ with h5py (issue:
reliability round 2). Not run in CI: the files are committed. Run again
with Debian's python3-h5py after changing it:

    cd episode/robolab/testdata && /usr/bin/python3 make_hostile.py

Each file is small but declares sizes or holds structures that a reader
must bound or handle: see the comment above each.
"""

import os

import h5py
import numpy as np

from make_fixtures import BODIES, corners, end_demo, new_run, pose, trajectory, write_demo

OUT = "hostile"


def small_demo(g, T):
    """Only what the reader reads: the poses and corners of the three
    bodies, contiguous, at their first positions."""
    steps = trajectory("success", T)
    for body, (half, yaw) in BODIES.items():
        g.create_dataset(f"states/rigid_object/{body}/root_pose", data=np.array([pose(s[body], yaw) for s in steps]),
                         track_times=False)
        mm = [np.rint(np.array(corners(s[body], half, yaw)) * 1000.0) for s in steps]
        g.create_dataset(f"bbox/bbox_mm/{body}", data=np.array(mm, dtype=np.int16), track_times=False)
    g.attrs["num_samples"] = T
    return g


def main():
    os.makedirs(OUT, exist_ok=True)

    # declared_rows.hdf5: every dataset resized to 10^12 rows with only the
    # first 16 written (maxshape None, chunked): nothing stored past them.
    f, data = new_run(f"{OUT}/declared_rows.hdf5")
    g = write_demo(data.create_group("demo_0"), "success", 16, seed=1, image=False)

    def grow(name, obj):
        if isinstance(obj, h5py.Dataset) and obj.maxshape and obj.maxshape[0] is None:
            obj.resize(10**12, axis=0)
    g.visititems(grow)
    g.attrs["num_samples"] = 10**12
    end_demo(data, g, True)
    f.close()

    # bomb.hdf5: every dataset read is one gzip chunk of 2^20 rows of
    # zeros (56 MiB declared for a pose, a few KiB stored).
    f, data = new_run(f"{OUT}/bomb.hdf5")
    g = data.create_group("demo_0")
    rows = 1 << 20
    for body in BODIES:
        for path, shape, dtype in ((f"states/rigid_object/{body}/root_pose", (rows, 7), np.float64),
                                   (f"bbox/bbox_mm/{body}", (rows, 8, 3), np.int16)):
            g.create_dataset(path, shape=shape, dtype=dtype, chunks=shape, compression="gzip", compression_opts=9,
                             data=np.zeros(shape, dtype), track_times=False)
    g.attrs["num_samples"] = rows
    end_demo(data, g, True)
    f.close()

    # many_demos.hdf5: 150 short demos, so data's symbol table B-tree has
    # internal nodes (h5py's default once a group has ~64 links or more).
    f, data = new_run(f"{OUT}/many_demos.hdf5")
    for k in range(150):
        end_demo(data, small_demo(data.create_group(f"demo_{k}"), 2), True)
    f.close()

    # bad_attrs.hdf5: num_samples and dt attributes out of range, one per
    # demo: -5, 0 and a string steps; NaN, inf, -inf, 0 and -1 seconds.
    f, data = new_run(f"{OUT}/bad_attrs.hdf5")
    bad = [("num_samples", -5), ("num_samples", 0), ("num_samples", "ten"),
           ("dt", float("nan")), ("dt", float("inf")), ("dt", float("-inf")), ("dt", 0.0), ("dt", -1.0)]
    for k, (key, value) in enumerate(bad):
        g = small_demo(data.create_group(f"demo_{k}"), 4)
        end_demo(data, g, True)
        g.attrs[key] = value
    f.close()

    # Fuzz seeds, a few KiB each so that FuzzRunFile stays fast: one demo
    # of two steps (only the apple); the same with every dataset chunked
    # and resized to 10^12 rows; one pose chunk declaring 14 MiB of zeros.
    def apple_only(g, T, chunks=None):
        steps = trajectory("success", T)
        half, yaw = BODIES["apple"]
        kw = {"chunks": True, "maxshape": (None, 7)} if chunks else {}
        g.create_dataset("states/rigid_object/apple/root_pose", data=np.array([pose(s["apple"], yaw) for s in steps]),
                         track_times=False, **kw)
        kw = {"chunks": True, "maxshape": (None, 8, 3)} if chunks else {}
        mm = [np.rint(np.array(corners(s["apple"], half, yaw)) * 1000.0) for s in steps]
        g.create_dataset("bbox/bbox_mm/apple", data=np.array(mm, dtype=np.int16), track_times=False, **kw)
        g.attrs["num_samples"] = T
        return g

    f, data = new_run(f"{OUT}/tiny.hdf5")
    end_demo(data, apple_only(data.create_group("demo_0"), 2), True)
    f.close()
    f, data = new_run(f"{OUT}/tiny_declared.hdf5")
    g = apple_only(data.create_group("demo_0"), 2, chunks=True)
    for ds in (g["states/rigid_object/apple/root_pose"], g["bbox/bbox_mm/apple"]):
        ds.resize(10**12, axis=0)
    g.attrs["num_samples"] = 10**12
    end_demo(data, g, True)
    f.close()
    f, data = new_run(f"{OUT}/tiny_bomb.hdf5")
    g = data.create_group("demo_0")
    rows = 1 << 18
    g.create_dataset("states/rigid_object/apple/root_pose", shape=(rows, 7), dtype=np.float64, chunks=(rows, 7),
                     compression="gzip", compression_opts=9, data=np.zeros((rows, 7)), track_times=False)
    g.create_dataset("bbox/bbox_mm/apple", shape=(rows, 8, 3), dtype=np.int16, chunks=(rows // 16, 8, 3),
                     compression="gzip", compression_opts=9, data=np.zeros((rows, 8, 3), np.int16), track_times=False)
    g.attrs["num_samples"] = rows
    end_demo(data, g, True)
    f.close()


if __name__ == "__main__":
    main()
