"""The knowledge base of an installed ``bddl`` package (issue 30)."""

import json
import os
import sys
import tempfile
import unittest
from unittest import mock

import openbddl
from openbddl import installed

# A BEHAVIOR-1K knowledge base of its own: one synset the embedded example
# knowledge base does not have.
TINY = {
    "output_hierarchy.json": json.dumps({"name": "entity.n.01", "children": [
        {"name": "zzwidget.n.01", "categories": ["zzwidget"]}]}),
    "synsets.csv": "synset,hypernyms,prune,is_custom,objectType\nzzwidget.n.01,entity.n.01,0,1,rigidBody\n",
    "propagated_annots_params.json": json.dumps({"entity.n.01": {}, "zzwidget.n.01": {"rigidBody": {}, "nonSubstance": {}}}),
    "allowed_room_types.csv": "Room Name\nkitchen\n",
}


def fake_package(root: str, with_data: bool = True) -> str:
    """Lays out site-packages/bddl as the bddl package installs: its
    Python code and generated_data/."""
    pkg = os.path.join(root, "bddl")
    os.makedirs(os.path.join(pkg, "knowledge_base"))
    for rel in ("__init__.py", "knowledge_base/__init__.py", "knowledge_base/orm.py"):
        with open(os.path.join(pkg, rel), "w") as f:
            f.write("raise ImportError('the test must not import bddl')\n")
    data = os.path.join(pkg, "generated_data")
    if with_data:
        os.makedirs(data)
        for name, text in TINY.items():
            with open(os.path.join(data, name), "w") as f:
                f.write(text)
    return data


class InstalledTest(unittest.TestCase):
    def test_found_without_importing(self) -> None:
        with tempfile.TemporaryDirectory() as site:
            data = fake_package(site)
            with mock.patch.object(sys, "path", [site] + sys.path):
                self.assertEqual(openbddl.installed_kb(), os.path.abspath(data))
            self.assertNotIn("bddl", sys.modules)

    def test_package_without_data(self) -> None:
        with tempfile.TemporaryDirectory() as site:
            fake_package(site, with_data=False)
            with mock.patch.object(sys, "path", [site] + sys.path):
                self.assertIsNone(openbddl.installed_kb())

    def test_explicit_setting_kept(self) -> None:
        with tempfile.TemporaryDirectory() as site:
            fake_package(site)
            with mock.patch.object(sys, "path", [site] + sys.path):
                env = {installed.ENV_INSTALLED: "/elsewhere"}
                self.assertIs(installed.server_env(env), env)

    def test_engine_uses_it(self) -> None:
        with tempfile.TemporaryDirectory() as site:
            fake_package(site)
            env = {k: v for k, v in os.environ.items() if k not in ("BDDL_KB", installed.ENV_INSTALLED)}
            env["BDDL_CONFIG"] = "none"
            with mock.patch.object(sys, "path", [site] + sys.path):
                with openbddl.Engine(env=env) as eng:
                    shown = eng.kb_show("zzwidget.n.01")
            self.assertEqual(len(shown), 1)
            self.assertIn("zzwidget", json.dumps(shown[0]))


if __name__ == "__main__":
    unittest.main()
