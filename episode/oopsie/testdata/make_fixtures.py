#!/usr/bin/env python3
"""Writes the Oopsie-layout episodes under this directory with h5py.

Not run in CI: the files it writes are committed. Run it again (Debian's
python3-h5py) after changing it:

    cd episode/oopsie/testdata && /usr/bin/python3 make_fixtures.py

The layout is oopsiedata_format_v1 as published: root attributes schema,
language_instruction, episode_id, lab_id, operator_name (optional),
robot_profile (JSON), timestamp; observations/robot_states/
{gripper_position [N,1], cartesian_position [N,D], joint_position [N,D]};
observations/video_paths/<camera> (string datasets); actions/<name>, float64,
only one a real tensor in a single-arm setup, the others empty datasets;
episode_annotations/<annotator>/ groups holding attributes only.

session/ — an evaluation session of three episodes:
  ep_single.h5  single arm, fixed base, gripper closes at step 20 of 40,
                annotated by human_alice (success) and human_bob (failure)
  ep_biarm.h5   two arms (cartesian 14/12 wide), a moving base
                (actions/base_position [N,3]), annotated by human_alice
  ep_noannot.h5 no annotation, no gripper_position (a missing stream),
                every action empty
variants/ep_variants.h5 — what other writers may do (see main)
bad/ — files that must be refused with a clear message:
  truncated.h5  ep_single.h5 cut in half
  not_oopsie.h5 an HDF5 file of another layout
Each episode X.h5 of session/ has its object track X.objects.jsonl beside
it (written here too): an apple on the floor, lifted onto the table in
ep_single and ep_noannot, never in ep_biarm. With robot.yaml and
putting_the_apple_on_the_table.bddl: BDDL says success, failure, success;
human_alice agrees on both she judged, human_bob (ep_single only) does not.
"""

import json
import os
import shutil

import h5py
import numpy as np

T0 = 1_700_000_000.0
HZ = 15


def profile(arms, base):
    return json.dumps({"robot_id": "test_arm", "control_frequency": HZ, "arms": arms, "mobile_base": base,
                       "joint_names": [f"joint_{i}" for i in range(7 * arms)], "camera_names": ["wrist", "ext1"]})


def episode(path, n, arms=1, base=False, gripper=True, actions_real=True, annotations=(), episode_id="ep", **file_kw):
    # file_kw: h5py.File's layout options (make_layouts.py)
    with h5py.File(path, "w", **file_kw) as f:
        f.attrs["schema"] = "oopsiedata_format_v1"
        f.attrs["language_instruction"] = "put the apple on the table"
        f.attrs["episode_id"] = episode_id
        f.attrs["lab_id"] = "test_lab"
        f.attrs["operator_name"] = "operator one"
        f.attrs["robot_profile"] = profile(arms, base)
        f.attrs["timestamp"] = T0
        rs = f.create_group("observations/robot_states")
        steps = np.arange(n, dtype=np.float64)
        if gripper:
            g = (steps >= n // 2).astype(np.float64).reshape(n, 1) * 0.9
            rs.create_dataset("gripper_position", data=g)
        rs.create_dataset("cartesian_position", data=np.tile(np.array([0.4, 0, 0.3, 0, 0, 0, 1.0] * arms), (n, 1)) + steps.reshape(n, 1) * 1e-3)
        rs.create_dataset("joint_position", data=np.tile(np.linspace(0, 1, 7 * arms), (n, 1)))
        vp = f.create_group("observations/video_paths")
        vp.create_dataset("wrist", data="videos/wrist.mp4", dtype=h5py.string_dtype())
        vp.create_dataset("ext1", data="videos/ext1.mp4", dtype=h5py.string_dtype())
        a = f.create_group("actions")
        widths = {"joint_position": 7 * arms, "joint_velocity": 7 * arms, "gripper_binary": 1, "gripper_position": 1,
                  "gripper_velocity": 1, "base_position": 3, "base_velocity": 3, "cartesian_position": 7 * arms,
                  "cartesian_velocity": 6 * arms}
        real = set()
        if actions_real:
            real = {"cartesian_position"} | ({"cartesian_velocity"} if arms == 2 else set()) | ({"base_position", "base_velocity"} if base else set())
        for name, w in widths.items():
            if name in real:
                if name == "base_position":
                    d = np.stack([0.5 + 0.05 * steps, 0.2 * np.ones(n), 0.1 * np.ones(n)], axis=1)
                else:
                    d = np.tile(np.arange(w, dtype=np.float64) * 0.01, (n, 1))
                a.create_dataset(name, data=d)
            else:
                a.create_dataset(name, shape=(0, w), dtype=np.float64)
        for name, success, desc in annotations:
            g = f.create_group(f"episode_annotations/{name}")
            g.attrs["source"] = "human"
            g.attrs["timestamp"] = "2026-01-02T03:04:05Z"
            g.attrs["success"] = success
            g.attrs["failure_description"] = desc
            g.attrs["taxonomy"] = json.dumps({"failure_category": "none" if success else "grasp", "severity": 0 if success else 2})
            g.attrs["additional_notes"] = "notes of " + name


def track(path, n, lifted=True):
    # the apple starts on the floor beside the table and, when lifted, is
    # on the table from step 30
    with open(path, "w") as f:
        for i in range(0, n, 3):
            t = T0 + i / HZ
            on = lifted and i >= 30
            z = 0.80 if on else 0.0
            x = 1.0 if on else 2.5
            f.write(json.dumps({"t": t, "objects": {"apple": {"aabb": [x - 0.04, 0.96, z, x + 0.04, 1.04, z + 0.08]}}}) + "\n")


def null_episode(path):
    # an action entry stored as h5py.Empty: a null dataspace with no
    # storage, which the HDF5 library reads as a scalar
    episode(path, 12, episode_id="ep_null")
    with h5py.File(path, "a") as f:
        del f["actions/cartesian_velocity"]
        f.create_dataset("actions/cartesian_velocity", data=h5py.Empty("f8"))


def main():
    for d in ("session", "bad"):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    n = 40
    episode("session/ep_single.h5", n, annotations=[("human_alice", 1.0, ""), ("human_bob", 0.0, "the apple slipped")], episode_id="ep_single")
    episode("session/ep_biarm.h5", n, arms=2, base=True, annotations=[("human_alice", 0.0, "never lifted")], episode_id="ep_biarm")
    episode("session/ep_noannot.h5", n, gripper=False, actions_real=False, episode_id="ep_noannot")
    for e, lifted in (("ep_single", True), ("ep_biarm", False), ("ep_noannot", True)):
        track(f"session/{e}.objects.jsonl", n, lifted)
    data = open("session/ep_single.h5", "rb").read()
    open("bad/truncated.h5", "wb").write(data[: len(data) // 2])
    with h5py.File("bad/not_oopsie.h5", "w") as f:
        f.create_dataset("data/demo_0/actions", data=np.zeros((3, 7)))
    # variants other writers may produce: chunked gzip datasets, a root
    # timestamp as an ISO string, robot_profile's control_freq, a success
    # stored as a numpy bool (an HDF5 enum) and one as a string
    shutil.rmtree("variants", ignore_errors=True)
    os.makedirs("variants")
    with h5py.File("variants/ep_variants.h5", "w") as f:
        f.attrs["schema"] = "oopsiedata_format_v1"
        f.attrs["language_instruction"] = b"open the drawer"
        f.attrs["episode_id"] = "v1"
        f.attrs["lab_id"] = "other_lab"
        f.attrs["robot_profile"] = json.dumps({"robot_id": "x", "control_freq": 10})
        f.attrs["timestamp"] = "2023-11-14T22:13:20Z"
        g = np.linspace(0, 1, 500).reshape(500, 1)
        f.create_dataset("observations/robot_states/gripper_position", data=g, chunks=(64, 1), compression="gzip")
        f.create_dataset("actions/joint_velocity", data=np.ones((500, 7)), chunks=(100, 7), compression="gzip")
        a = f.create_group("episode_annotations/tool_bool")
        a.attrs["source"] = "human"
        a.attrs["success"] = np.bool_(True)
        b = f.create_group("episode_annotations/tool_str")
        b.attrs["source"] = "human"
        b.attrs["success"] = "0.0"
        b.attrs["timestamp"] = 1700000000.5
    null_episode("variants/ep_null.h5")


if __name__ == "__main__":
    main()
