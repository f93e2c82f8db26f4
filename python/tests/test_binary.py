"""Binary discovery: the bundled binary, $BDDL_BIN, PATH, go build."""

import os
import shutil
import stat
import tempfile
import unittest
from unittest import mock

import openbddl
from openbddl import binary


def _exe(d: str, name: str = "bddl") -> str:
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n")
    os.chmod(path, 0o755)
    return path


class DiscoveryOrderTest(unittest.TestCase):
    """One table: which binary wins when several are there."""

    def test_order(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "pkg", "_bin"))
            bundled = _exe(os.path.join(d, "pkg", "_bin"))
            env_bin = _exe(d, "env-bddl")
            path_dir = os.path.join(d, "path")
            os.makedirs(path_dir)
            on_path = _exe(path_dir)
            built = os.path.join(d, "built-bddl")
            cases = [
                # name, bundled?, BDDL_BIN?, on PATH?, go and source?, want (path, source) or None for no_binary
                ("bundled first", True, True, True, True, (bundled, "bundled")),
                ("then BDDL_BIN", False, True, True, True, (env_bin, "BDDL_BIN")),
                ("then PATH", False, False, True, True, (on_path, "PATH")),
                ("then go build", False, False, False, True, (built, "go build")),
                ("else no_binary", False, False, False, False, None),
            ]
            for name, has_bundled, has_env, has_path, has_go, want in cases:
                with self.subTest(name):
                    env = {"PATH": path_dir if has_path else os.path.join(d, "empty"), "HOME": d}
                    if has_env:
                        env["BDDL_BIN"] = env_bin
                    with mock.patch.dict(os.environ, env, clear=True), \
                            mock.patch.object(binary, "bundled_binary", return_value=bundled if has_bundled else None), \
                            mock.patch.object(binary, "_go", return_value="/usr/bin/go" if has_go else None), \
                            mock.patch.object(binary, "source_root", return_value=d if has_go else None), \
                            mock.patch.object(binary, "build_binary", return_value=built):
                        if want is None:
                            with self.assertRaises(openbddl.EngineError) as cm:
                                binary.binary_path()
                            self.assertEqual(cm.exception.code, "no_binary")
                            self.assertIn("platform wheel", str(cm.exception))
                            self.assertIn("BDDL_BIN", str(cm.exception))
                        else:
                            self.assertEqual(binary.binary_path(), want)
                            self.assertEqual(openbddl.find_binary(), want[0])

    def test_bundled_binary(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            self.assertIsNone(binary.bundled_binary(d))
            os.makedirs(os.path.join(d, "_bin"))
            exe = _exe(os.path.join(d, "_bin"), "bddl.exe" if os.name == "nt" else "bddl")
            self.assertEqual(binary.bundled_binary(d), exe)
            if os.name != "nt":
                os.chmod(exe, stat.S_IRUSR)  # not executable: not used
                self.assertIsNone(binary.bundled_binary(d))

    def test_env_relative_made_absolute(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            _exe(d)
            cwd = os.getcwd()
            os.chdir(d)
            try:
                with mock.patch.dict(os.environ, {"BDDL_BIN": os.path.join(".", "bddl")}), \
                        mock.patch.object(binary, "bundled_binary", return_value=None):
                    path, source = binary.binary_path()
            finally:
                os.chdir(cwd)
            self.assertEqual(source, "BDDL_BIN")
            self.assertTrue(os.path.isabs(path), path)
            self.assertTrue(os.path.samefile(path, os.path.join(d, "bddl")))

    def test_env_not_executable(self) -> None:
        with mock.patch.dict(os.environ, {"BDDL_BIN": "/nonexistent/bddl"}), \
                mock.patch.object(binary, "bundled_binary", return_value=None):
            with self.assertRaises(openbddl.EngineError) as cm:
                binary.binary_path()
            self.assertEqual(cm.exception.code, "no_binary")

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
