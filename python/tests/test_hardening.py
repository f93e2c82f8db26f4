"""The client against a server that misbehaves, and where the binary and
the source tree come from."""

import os
import stat
import sys
import tempfile
import time
import unittest
from unittest import mock

import openbddl
from openbddl import binary

HANDSHAKE = '{"protocol": 1, "version": "test", "methods": ["explain"], "max_line": 1024, "features": []}'


def fake_server(d: str, after_handshake: str) -> str:
    """A bddl stand-in: writes the handshake, then runs after_handshake
    (Python) for each request line."""
    exe = os.path.join(d, "fake-bddl")
    with open(exe, "w") as f:
        f.write("#!%s\nimport sys, time\nprint(%r, flush=True)\nfor line in sys.stdin:\n    %s\n"
                % (sys.executable, HANDSHAKE, after_handshake))
    os.chmod(exe, 0o755)
    return exe


@unittest.skipUnless(os.name == "posix", "the timeout reads the pipe with poll (POSIX)")
class MisbehavingServerTest(unittest.TestCase):
    def test_not_json_is_a_protocol_error(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            exe = fake_server(d, "print('this is not JSON', flush=True)")
            with openbddl.Engine(binary=exe) as eng:
                with self.assertRaises(openbddl.EngineError) as cm:
                    eng.call("explain", {})
                self.assertEqual(cm.exception.code, "protocol")
                self.assertIn("this is not JSON", str(cm.exception))

    def test_silent_server_times_out(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            exe = fake_server(d, "time.sleep(3600)")
            with openbddl.Engine(binary=exe, timeout=0.5) as eng:
                start = time.monotonic()
                with self.assertRaises(openbddl.EngineError) as cm:
                    eng.call("explain", {})
                self.assertEqual(cm.exception.code, "timeout")
                self.assertLess(time.monotonic() - start, 60)  # not forever

    def test_bad_timeout(self) -> None:
        with self.assertRaises(ValueError):
            openbddl.Engine(timeout=0)


class BinaryResolutionTest(unittest.TestCase):
    # $BDDL_BIN as such: a platform wheel's bundled binary, which comes
    # first (binary_path), is set aside.
    def setUp(self) -> None:
        patcher = mock.patch.object(binary, "bundled_binary", return_value=None)
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_relative_bin_resolved_once(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            exe = os.path.join(d, "bddl")
            with open(exe, "w") as f:
                f.write("#!/bin/sh\n")
            os.chmod(exe, 0o755)
            old = os.getcwd()
            os.chdir(d)
            try:
                with mock.patch.dict(os.environ, {"BDDL_BIN": "./bddl"}):
                    got = binary.find_binary()
                    self.assertTrue(os.path.isabs(got))
                    self.assertEqual(os.path.realpath(got), os.path.realpath(exe))
            finally:
                os.chdir(old)

    def test_bare_name_is_looked_up_on_path(self) -> None:
        # BDDL_BIN=bddl runs the bddl on PATH, not ./bddl
        with tempfile.TemporaryDirectory() as onpath, tempfile.TemporaryDirectory() as cwd:
            for dd in (onpath, cwd):
                with open(os.path.join(dd, "bddl"), "w") as f:
                    f.write("#!/bin/sh\n")
                os.chmod(os.path.join(dd, "bddl"), 0o755)
            old = os.getcwd()
            os.chdir(cwd)
            try:
                with mock.patch.dict(os.environ, {"BDDL_BIN": "bddl", "PATH": onpath}):
                    self.assertEqual(binary.find_binary(), os.path.join(onpath, "bddl"))
            finally:
                os.chdir(old)


@unittest.skipUnless(hasattr(os, "geteuid"), "owners are POSIX")
class RecordedSourceTest(unittest.TestCase):
    def make_tree(self, d: str) -> str:
        root = os.path.join(d, "src")
        os.makedirs(os.path.join(root, "cmd", "bddl"))
        with open(os.path.join(root, "go.mod"), "w") as f:
            f.write(binary.MODULE + "\n")
        return root

    def test_trusted_tree(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            root = self.make_tree(d)
            self.assertTrue(binary._trusted_tree(root))
            # writable by anyone: refused
            os.chmod(os.path.join(root, "cmd", "bddl"), 0o777)
            self.assertFalse(binary._trusted_tree(root))
            os.chmod(os.path.join(root, "cmd", "bddl"), 0o755)
            # gone: refused
            self.assertFalse(binary._trusted_tree(os.path.join(d, "nothing")))

    @unittest.skipUnless(hasattr(os, "geteuid") and os.geteuid() == 0, "giving a tree to another user needs root")
    def test_tree_of_another_user_refused(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            root = self.make_tree(d)
            os.chown(os.path.join(root, "cmd", "bddl"), 4321, 4321)
            self.assertFalse(binary._trusted_tree(root))


if __name__ == "__main__":
    unittest.main()
