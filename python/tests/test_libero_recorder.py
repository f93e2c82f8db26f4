"""Tests of openbddl.libero_recorder against a fake LIBERO environment.

The fake has the attributes the recorder reads, with values recorded as a
LIBERO env would hold them (numpy-like arrays are plain lists here): a
kitchen task with a flat stove (fixture), a moka pot, and the stove's
cook_region site. No simulator is needed or imported.
"""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from openbddl import libero_recorder as rec  # noqa: E402

FIXTURE = {
    "obj_body_id": {"flat_stove_1": 3, "moka_pot_1": 5, "kitchen_table": 1},
    "body_xpos": {1: [0, 0, 0.9], 3: [-0.2, 0.2, 0.91], 5: [0.05, 0.0, 0.95]},
    "body_xquat": {1: [1, 0, 0, 0], 3: [1, 0, 0, 0], 5: [0.7071, 0, 0, 0.7071]},
    "sites": {
        "flat_stove_1_cook_region": {"pos": [-0.2, 0.2, 0.95], "mat": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
                                     "size": [0.08, 0.08, 0.01], "joints": []},
        "kitchen_table_moka_pot_init_region": {"pos": [0.05, 0.0, 0.9], "mat": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
                                               "size": (0.025, 0.025, 0.007), "joints": None},
    },
    # flat_stove_1's knob joint at qpos address 7; the moka pot's free joint
    # spans 7 addresses and is not a scalar joint.
    "joints": {"flat_stove_1": ["flat_stove_1_knob"], "moka_pot_1": ["moka_pot_1_joint0"]},
    "qpos_addr": {"flat_stove_1_knob": 7, "moka_pot_1_joint0": (8, 15)},
    "qpos": [0] * 7 + [0.62] + [0.05, 0.0, 0.95, 1, 0, 0, 0],
    "contacts": [("flat_stove_1", "moka_pot_1")],
}


class _Obj:
    def __init__(self, name, joints):
        self.name = name
        self.joints = joints


class _Site:
    def __init__(self, spec):
        self.size = spec["size"]
        self.joints = spec["joints"]


class _Data:
    def __init__(self, f):
        self.f = f
        self.body_xpos = f["body_xpos"]
        self.body_xquat = f["body_xquat"]
        self.qpos = list(f["qpos"])

    def get_site_xpos(self, name):
        return self.f["sites"][name]["pos"]

    def get_site_xmat(self, name):
        return self.f["sites"][name]["mat"]


class _Model:
    def __init__(self, f):
        self.f = f

    def get_joint_qpos_addr(self, joint):
        return self.f["qpos_addr"][joint]


class _Sim:
    def __init__(self, f):
        self.data = _Data(f)
        self.model = _Model(f)


class FakeDomain:
    """The BDDLBaseDomain attributes the recorder reads."""

    def __init__(self, f=FIXTURE):
        self.f = f
        self.sim = _Sim(f)
        self.obj_body_id = f["obj_body_id"]
        # The workspace (kitchen_table) is built by the problem class and
        # never enters fixtures_dict (_load_fixtures_in_arena skips it).
        self.fixtures_dict = {"flat_stove_1": _Obj("flat_stove_1", f["joints"]["flat_stove_1"])}
        self.objects_dict = {"moka_pot_1": _Obj("moka_pot_1", f["joints"]["moka_pot_1"])}
        self.object_sites_dict = {n: _Site(s) for n, s in f["sites"].items()}
        self.parsed_problem = {"problem_name": "libero_kitchen_tabletop_manipulation",
                               "language_instruction": ["turn", "on", "the", "stove"]}
        self.steps = 0

    def get_object(self, name):
        for d in (self.fixtures_dict, self.objects_dict, self.object_sites_dict):
            if name in d:
                return d[name]
        return None

    def check_contact(self, a, b):
        return (a.name, b.name) in self.f["contacts"] or (b.name, a.name) in self.f["contacts"]

    def reset(self):
        return {"obs": 0}

    def step(self, action):
        self.steps += 1
        self.sim.data.qpos[7] = 0.62 + 0.1 * self.steps  # the knob turns
        return {"obs": self.steps}, 0.0, False, {}


class FakeControlEnv:
    """LIBERO's OffScreenRenderEnv keeps the domain in .env and forwards .sim."""

    def __init__(self):
        self.env = FakeDomain()

    @property
    def sim(self):
        return self.env.sim

    def reset(self):
        return self.env.reset()

    def step(self, action):
        return self.env.step(action)


class RecorderTest(unittest.TestCase):
    def record(self, steps=2):
        env = FakeControlEnv()
        path = os.path.join(tempfile.mkdtemp(), "ep.jsonl")
        with rec.LiberoRecorder(env, path, definition="task.bddl") as r:
            r.reset()
            for _ in range(steps):
                r.step([0] * 7)
        with open(path, encoding="utf-8") as f:
            return [json.loads(line) for line in f]

    def test_header(self):
        header = self.record()[0]
        self.assertEqual(header["format"], "libero-episode")
        self.assertEqual(header["version"], 1)
        self.assertEqual(header["definition"], "task.bddl")
        self.assertEqual(header["problem"], "libero_kitchen_tabletop_manipulation")
        self.assertEqual(header["language"], "turn on the stove")

    def test_one_line_per_step_from_reset(self):
        lines = self.record(steps=3)
        self.assertEqual([s["step"] for s in lines[1:]], [0, 1, 2, 3])

    def test_bodies(self):
        step = self.record()[1]
        self.assertEqual(sorted(step["bodies"]), ["flat_stove_1", "moka_pot_1"])
        self.assertEqual(step["bodies"]["moka_pot_1"], {"pos": [0.05, 0.0, 0.95], "quat": [0.7071, 0.0, 0.0, 0.7071]})

    def test_sites_are_flattened_boxes(self):
        site = self.record()[1]["sites"]["flat_stove_1_cook_region"]
        self.assertEqual(site["mat"], [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0])
        self.assertEqual(site["size"], [0.08, 0.08, 0.01])

    def test_joints_scalar_only_and_follow_the_simulator(self):
        lines = self.record(steps=2)
        self.assertEqual(lines[1]["joints"], {"flat_stove_1": [0.62], "moka_pot_1": [],
                                              "flat_stove_1_cook_region": [], "kitchen_table_moka_pot_init_region": []})
        self.assertAlmostEqual(lines[3]["joints"]["flat_stove_1"][0], 0.82)

    def test_contacts_are_pairs_check_contact_accepts(self):
        self.assertEqual(self.record()[1]["contacts"], [["flat_stove_1", "moka_pot_1"]])

    def test_names_libero_skips_are_skipped(self):
        env = FakeDomain()
        env.fixtures_dict["main_table"] = _Obj("main_table", [])
        self.assertNotIn("main_table", rec.snapshot(env, 0)["bodies"])

    def test_not_an_env(self):
        with self.assertRaises(TypeError):
            rec.snapshot(object(), 0)

    def test_make_env_imports_libero_lazily(self):
        # Importing the module did not import LIBERO; make_env does, and
        # fails here where LIBERO is not installed.
        self.assertNotIn("libero", sys.modules)
        with self.assertRaises(ImportError):
            rec.make_env("task.bddl")


if __name__ == "__main__":
    unittest.main()
