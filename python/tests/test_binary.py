"""Binary discovery: $BDDL_BIN, PATH, go build."""

import os
import shutil
import tempfile
import unittest
from unittest import mock

import openbddl
from openbddl import binary


class BinaryTest(unittest.TestCase):
    def test_env_first(self) -> None:
        with tempfile.NamedTemporaryFile(delete=False) as f:
            pass
        os.chmod(f.name, 0o755)
        try:
            with mock.patch.dict(os.environ, {"BDDL_BIN": f.name}):
                self.assertEqual(binary.find_binary(), f.name)
        finally:
            os.unlink(f.name)

    def test_path_second(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            exe = os.path.join(d, "bddl")
            with open(exe, "w") as f:
                f.write("#!/bin/sh\n")
            os.chmod(exe, 0o755)
            env = {k: v for k, v in os.environ.items() if k != "BDDL_BIN"}
            env["PATH"] = d
            with mock.patch.dict(os.environ, env, clear=True):
                self.assertEqual(binary.find_binary(), exe)

    def test_clear_error_without_go(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            env = {"PATH": d, "HOME": d}
            with mock.patch.dict(os.environ, env, clear=True), mock.patch.object(binary, "_go", return_value=None):
                with self.assertRaises(openbddl.EngineError) as cm:
                    binary.find_binary()
            self.assertEqual(cm.exception.code, "no_binary")
            self.assertIn("BDDL_BIN", str(cm.exception))

    @unittest.skipUnless(os.environ.get("OPENBDDL_TEST_GO_BUILD") and shutil.which("go"), "set OPENBDDL_TEST_GO_BUILD=1 to build bddl with go (slow)")
    def test_go_build(self) -> None:
        root = binary.source_root()
        self.assertIsNotNone(root)
        with tempfile.TemporaryDirectory() as d:
            with mock.patch.dict(os.environ, {"XDG_CACHE_HOME": d}):
                exe = binary.build_binary(root, shutil.which("go"))
                self.assertTrue(os.access(exe, os.X_OK))
                with openbddl.Engine(binary=exe) as eng:
                    self.assertTrue(eng.version)


if __name__ == "__main__":
    unittest.main()
