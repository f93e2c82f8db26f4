#!/usr/bin/env python3
"""Writes the RoboLab-layout run files under this directory with h5py.

Not run in CI: the files it writes are committed. Run it again (Debian's
python3-h5py) after changing it:

    cd episode/robolab/testdata && python3 make_fixtures.py

The files are written the way RoboLab's streaming HDF5 handler writes them
(h5py defaults, so superblock version 0 and version-1 B-tree chunk indexes;
every dataset created from its first flush with maxshape (None, ...),
chunks=True and gzip, then resized and appended at each flush), with the
documented layout: data/demo_<k>/states/{rigid_object,articulation}/<name>/…,
initial_state/…, bbox/bbox_mm/<name> int16 [T, 8, 3] corners in millimetres
(0-3 bottom face, 4-7 top face), bbox/centroid/<name> float16 [T, 3],
subtask/…, obs/… images (uint8) and actions [T, 8]. Poses are position then
quaternion in Isaac Lab's order (w, x, y, z).

The scene (activity putting_the_apple_in_the_bowl in this directory, map
names.yaml): an apple, a bowl and a mug on a table, a cabinet whose drawer
starts open, the robot. Goal: the apple in the bowl, the mug on the table,
the cabinet not open.
"""

import json
import math
import os
import shutil

import h5py
import numpy as np

FLUSH = 16  # RoboLab flushes every 500 steps; small files flush more often
CHUNK_STEPS = None  # steps per chunk; None: h5py's choice (make_layouts.py sets it)
TABLE_TOP = 0.75

# name -> (half extents x, y, z in metres, yaw in radians)
BODIES = {
    "apple": ((0.035, 0.035, 0.035), 0.0),
    "bowl": ((0.10, 0.10, 0.05), math.radians(30)),
    "mug": ((0.04, 0.05, 0.05), math.radians(-15)),
}


def corners(center, half, yaw, order="cyclic"):
    """OBB corners: 0-3 the bottom face, 4-7 the top face, same order.
    cyclic: around each face; bits: USD's GfRange3d.GetCorner order (bit 0
    x, bit 1 y, bit 2 z), whose faces are not in cyclic order."""
    c, s = math.cos(yaw), math.sin(yaw)
    out = []
    face = ((-1, -1), (1, -1), (1, 1), (-1, 1)) if order == "cyclic" else ((-1, -1), (1, -1), (-1, 1), (1, 1))
    for dz in (-1, 1):
        for dx, dy in face:
            lx, ly = dx * half[0], dy * half[1]
            out.append((center[0] + c * lx - s * ly, center[1] + s * lx + c * ly, center[2] + dz * half[2]))
    return out


def pose(center, yaw):
    """root_pose: position, then the quaternion w, x, y, z."""
    return [center[0], center[1], center[2], math.cos(yaw / 2), 0.0, 0.0, math.sin(yaw / 2)]


def lerp(a, b, f):
    f = min(max(f, 0.0), 1.0)
    return tuple(x + (y - x) * f for x, y in zip(a, b))


def on_table(x, y, half):
    return (x, y, TABLE_TOP + half[2])


def trajectory(kind, T):
    """Per step: centre of each body and the drawer's joint position."""
    apple_start = on_table(0.45, -0.20, BODIES["apple"][0])
    bowl = on_table(0.65, 0.20, BODIES["bowl"][0])
    apple_in_bowl = (bowl[0], bowl[1], TABLE_TOP + 0.005 + BODIES["apple"][0][2])
    apple_away = on_table(0.90, -0.30, BODIES["apple"][0])
    mug = on_table(0.40, 0.30, BODIES["mug"][0])
    mug_floor = (0.40, 0.90, BODIES["mug"][0][2])
    steps = []
    for t in range(T):
        drawer = 0.30 if t < 10 else max(0.0, 0.30 - 0.05 * (t - 10))  # closed from step 16
        if kind == "success":  # apple in the bowl from step 24 on
            apple = lerp(apple_start, apple_in_bowl, (t - 16) / 8)
            m = mug
        elif kind == "failure":  # the apple goes elsewhere and the mug falls off
            apple = lerp(apple_start, apple_away, (t - 16) / 8)
            m = lerp(mug, mug_floor, (t - 30) / 4)
        elif kind == "undone":  # in the bowl at steps 24-31, then taken out again
            apple = lerp(apple_start, apple_in_bowl, (t - 16) / 8) if t < 32 else lerp(apple_in_bowl, apple_away, (t - 32) / 6)
            m = mug
        else:
            raise ValueError(kind)
        steps.append({"apple": apple, "bowl": bowl, "mug": m, "drawer": drawer})
    return steps


class Demo:
    """Appends to a demo group as RoboLab's streaming handler does (or,
    contiguous, keeps the rows and writes each dataset once at the end)."""

    def __init__(self, group, contiguous=False):
        self.group = group
        self.datasets = {}
        self.contiguous = contiguous
        self.rows = {}

    def close(self):
        for key, rows in self.rows.items():
            self.group.create_dataset(key, data=np.concatenate(rows), track_times=False)

    def append(self, key, value):
        value = np.asarray(value)
        if self.contiguous:
            self.rows.setdefault(key, []).append(value)
            return
        if key in self.datasets:
            ds = self.datasets[key]
            old = ds.shape[0]
            ds.resize(old + value.shape[0], axis=0)
            ds[old:] = value
        else:
            chunks = True if CHUNK_STEPS is None else (CHUNK_STEPS,) + value.shape[1:]
            self.datasets[key] = self.group.create_dataset(
                key, data=value, maxshape=(None,) + value.shape[1:], chunks=chunks, compression="gzip", track_times=False
            )


def write_demo(g, kind, T, seed, *, bbox_dtype=np.int16, names=None, image=True, big_image=False, mutate=None, contiguous=False,
               corner_order="cyclic"):
    """Writes demo group g: T steps of the given kind, flushed every FLUSH steps."""
    names = names or {n: n for n in ("apple", "bowl", "mug", "robot", "cabinet")}
    rng = np.random.default_rng(seed)
    traj = trajectory(kind, T)
    g.attrs["num_samples"] = 0
    g.attrs["seed"] = seed
    d = Demo(g, contiguous)
    if big_image:
        # A full-size camera that is never written: logically T x 720 x 1280 x 3
        # bytes, nothing stored. A reader that touched it would allocate all of it.
        g.create_dataset("obs/wrist_cam", shape=(T, 720, 1280, 3), maxshape=(None, 720, 1280, 3),
                         dtype=np.uint8, chunks=(1, 720, 1280, 3), compression="gzip", track_times=False)
    for start in range(0, T, FLUSH):
        rows = range(start, min(start + FLUSH, T))
        buf = {}

        def put(key, row):
            buf.setdefault(key, []).append(row)

        for t in rows:
            s = traj[t]
            for body, (half, yaw) in BODIES.items():
                n = names[body]
                put(f"states/rigid_object/{n}/root_pose", pose(s[body], yaw))
                put(f"states/rigid_object/{n}/root_velocity", [0.0] * 6)
                mm = np.rint(np.array(corners(s[body], half, yaw, corner_order)) * 1000.0)
                put(f"bbox/bbox_mm/{n}", mm.astype(bbox_dtype))
                put(f"bbox/centroid/{n}", np.array(s[body], dtype=np.float16))
            put(f"states/articulation/{names['robot']}/joint_position", rng.normal(0, 0.1, 9).astype(np.float32))
            put(f"states/articulation/{names['robot']}/joint_velocity", np.zeros(9, np.float32))
            put(f"states/articulation/{names['robot']}/root_pose", [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0])
            put(f"states/articulation/{names['robot']}/root_velocity", [0.0] * 6)
            put(f"states/articulation/{names['cabinet']}/joint_position", [s["drawer"]])
            put(f"states/articulation/{names['cabinet']}/joint_velocity", [0.0])
            put(f"states/articulation/{names['cabinet']}/root_pose", [1.3, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0])
            put(f"states/articulation/{names['cabinet']}/root_velocity", [0.0] * 6)
            done = kind != "failure" and t >= 24
            put("subtask/completed", np.uint8(done))
            put("subtask/score", np.float32(1.0 if done else 0.0))
            put("subtask/status", np.uint16(100 if done else 0))
            put("actions", rng.normal(0, 0.05, 8).astype(np.float32))
            put("obs/gripper_pos", np.float32(0.0))
            if image:
                put("obs/external_cam", rng.integers(0, 255, (12, 16, 3), dtype=np.uint8))
        if start == 0:
            for key, rows0 in buf.items():
                if key.startswith("states/"):
                    g.create_dataset("initial_state/" + key[len("states/"):], data=np.asarray(rows0[:1], dtype=np.float32),
                                     track_times=False)
        for key, rows_ in buf.items():
            arr = np.asarray(rows_)
            if arr.dtype == np.float64:
                arr = arr.astype(np.float32)
            d.append(key, arr)
        if big_image and start == 0:
            g["obs/wrist_cam"][0, :8, :8] = rng.integers(0, 255, (8, 8, 3), dtype=np.uint8)
        g.attrs["num_samples"] = min(start + FLUSH, T)
        g.file.flush()
    d.close()
    if mutate:
        mutate(g)
    return g


def new_run(path, env_name="AppleInBowlTask"):
    f = h5py.File(path, "w")
    data = f.create_group("data")
    data.attrs["total"] = 0
    data.attrs["env_args"] = json.dumps({"env_name": env_name, "type": 2})
    return f, data


def end_demo(data, g, success):
    g.attrs["success"] = success
    data.attrs["total"] += g.attrs["num_samples"]


def main():
    # run_0.hdf5: four parallel environments. demo_0 succeeds (goal from step
    # 24), demo_1 fails, demo_2 succeeds at 24 and is undone at 32, demo_3
    # succeeds by our goal while RoboLab's results call it a failure. Each
    # carries a full-size camera that is never written.
    f, data = new_run("run_0.hdf5")
    for k, (kind, T, success) in enumerate([("success", 36, True), ("failure", 48, False),
                                            ("undone", 48, True), ("success", 40, False)]):
        g = write_demo(data.create_group(f"demo_{k}"), kind, T, seed=100 + k, big_image=True)
        end_demo(data, g, success)
    f.close()

    # direct.hdf5: objects recorded under their BDDL instance names; the
    # robot is still "robot" (unmapped without a map).
    f, data = new_run("direct.hdf5")
    names = {"apple": "apple.n.01_1", "bowl": "bowl.n.01_1", "mug": "mug.n.04_1",
             "robot": "robot", "cabinet": "cabinet.n.01_1"}
    g = write_demo(data.create_group("demo_0"), "success", 30, seed=7, names=names, image=False)
    g.attrs["dt"] = 0.05  # a demo's own seconds per step
    end_demo(data, g, True)
    end_demo(data, write_demo(data.create_group("demo_1"), "success", 30, seed=8, names=names, image=False), True)
    f.close()

    # contiguous.hdf5: the same layout, every dataset contiguous and
    # uncompressed (h5py's default when no chunks are asked for).
    f, data = new_run("contiguous.hdf5")
    end_demo(data, write_demo(data.create_group("demo_0"), "undone", 48, seed=21, image=False, contiguous=True), True)
    f.close()

    # corners_bits.hdf5: corners in USD's GetCorner order (the faces'
    # corners not in cyclic order).
    f, data = new_run("corners_bits.hdf5")
    end_demo(data, write_demo(data.create_group("demo_0"), "undone", 48, seed=22, image=False, corner_order="bits"), True)
    f.close()

    # Bad files, one fault per demo.
    f, data = new_run("bad.hdf5")
    # demo_0: a NaN position of the apple at step 7.
    def nan_pose(g):
        g["states/rigid_object/apple/root_pose"][7, 1] = np.nan
    write_demo(data.create_group("demo_0"), "success", 20, seed=1, image=False, mutate=nan_pose)
    # demo_1: float corners with a NaN for the bowl at step 9.
    def nan_corner(g):
        g["bbox/bbox_mm/bowl"][9, 5, 2] = np.nan
    write_demo(data.create_group("demo_1"), "success", 20, seed=2, image=False, bbox_dtype=np.float32, mutate=nan_corner)
    # demo_2: the mug's corners are missing.
    write_demo(data.create_group("demo_2"), "success", 20, seed=3, image=False,
               mutate=lambda g: g["bbox/bbox_mm"].__delitem__("mug"))
    # demo_3: the apple's corners hold 2 steps fewer than the demo.
    def short(g):
        g["bbox/bbox_mm/apple"].resize(18, axis=0)
    write_demo(data.create_group("demo_3"), "success", 20, seed=4, image=False, mutate=short)
    # demo_4: no states/rigid_object group at all.
    write_demo(data.create_group("demo_4"), "success", 20, seed=5, image=False,
               mutate=lambda g: g["states"].__delitem__("rigid_object"))
    # demo_5: root_pose of the bowl has 6 columns.
    def six(g):
        del g["states/rigid_object/bowl/root_pose"]
        g.create_dataset("states/rigid_object/bowl/root_pose", data=np.zeros((20, 6), np.float32), chunks=True, compression="gzip",
                         track_times=False)
    write_demo(data.create_group("demo_5"), "success", 20, seed=6, image=False, mutate=six)
    # demo_6: degenerate corners (all eight at one point) for the mug at step 3.
    def flat(g):
        g["bbox/bbox_mm/mug"][3] = 0
    write_demo(data.create_group("demo_6"), "success", 20, seed=7, image=False, mutate=flat)
    for g in data.values():
        end_demo(data, g, True)
    f.close()

    # latest.hdf5: the newest file format (superblock 3, new-style chunk
    # indexes), which RoboLab does not write but h5py users may.
    f = h5py.File("latest.hdf5", "w", libver="latest")
    data = f.create_group("data")
    data.attrs["env_args"] = json.dumps({"env_name": "AppleInBowlTask", "type": 2})
    write_demo(data.create_group("demo_0"), "success", 30, seed=9, image=False)
    f.close()

    # crashed.hdf5: what a run that died while recording leaves: demo_0
    # finished (success attribute, counted in data's total), demo_1 still
    # open after two flushes (32 of its 48 steps), copied at that moment.
    f, data = new_run("crashed.tmp.hdf5")
    end_demo(data, write_demo(data.create_group("demo_0"), "success", 36, seed=11, image=False), True)
    write_demo(data.create_group("demo_1"), "success", 32, seed=12, image=False)
    f.flush()
    shutil.copyfile("crashed.tmp.hdf5", "crashed.hdf5")
    f.close()
    os.remove("crashed.tmp.hdf5")

    results = [
        {"env_name": "AppleInBowlTask", "task_name": "AppleInBowlTask", "run_name": "AppleInBowlTask_0", "run": 0,
         "episode": k, "env_id": k, "policy": "pi05", "instruction": "Put the apple in the bowl and close the drawer",
         "instruction_type": "default", "attributes": ["simple"], "success": success, "score": score,
         "reason": reason, "episode_step": step, "duration": round(step / 15, 3), "dt": 1 / 15,
         "metrics": {}, "events": {}}
        for k, (success, score, reason, step) in enumerate([
            (True, 1.0, "Completed subtask 'pick_and_place' 1/1", 25),
            (False, 0.0, "Timeout", 48),
            (True, 1.0, "Completed subtask 'pick_and_place' 1/1", 25),
            (False, 0.5, "Object bumped: 'mug'", 40),
        ])
    ]
    with open("episode_results.jsonl", "w") as out:
        for r in results:
            out.write(json.dumps(r) + "\n")
    with open("env_cfg.json", "w") as out:
        json.dump({"sim": {"dt": 1 / 120, "render_interval": 8}, "decimation": 8, "episode_length_s": 20.0}, out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main()
