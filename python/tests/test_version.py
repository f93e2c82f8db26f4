"""The client's version, and its refusal of a server of another release."""

import os
import sys
import tempfile
import unittest

import openbddl
from openbddl.engine import server_release

from .helpers import REPO

# A stand-in for `bddl serve`: the handshake with the version it is
# given, then it waits for its input to end.
FAKE_SERVE = r'''
import json, sys
print(json.dumps({"protocol": 1, "version": %r, "methods": ["check"], "max_line": 1 << 20, "features": []}), flush=True)
sys.stdin.read()
'''


class VersionTest(unittest.TestCase):
    def test_version_is_the_release(self) -> None:
        self.assertRegex(openbddl.__version__, r"^\d+\.\d+\.\d+$")
        path = os.path.join(REPO, "python", "openbddl", "_version.py")
        if os.path.exists(path):  # the tree tools/release stamps binaries from
            with open(path, encoding="utf-8") as f:
                self.assertIn('__version__ = "%s"' % openbddl.__version__, f.read())

    def test_server_release(self) -> None:
        cases = [
            ("0.1.0 (revision 0123456789ab, 2026-01-02T03:04:05Z, go1.26.8, linux/amd64)", "0.1.0"),
            ("v1.2.3 (revision unknown: built without VCS information, go1.26, darwin/arm64)", "1.2.3"),
            ("(devel) (revision unknown: built without VCS information, go1.26)", None),
            ("v0.1.1-0.20261128163118-eaf8eed0a1b2+dirty (revision eaf8eed0a1b2, go1.26)", None),
            ("", None),
        ]
        for version, want in cases:
            with self.subTest(version):
                self.assertEqual(server_release(version), want)


@unittest.skipIf(os.name == "nt", "the stand-in server is a script with a #! line")
class HandshakeTest(unittest.TestCase):
    def fake(self, d: str, version: str) -> str:
        path = os.path.join(d, "bddl")
        with open(path, "w") as f:
            f.write("#!%s\n%s" % (sys.executable, FAKE_SERVE % version))
        os.chmod(path, 0o755)
        return path

    def test_mismatch_refused(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            exe = self.fake(d, "9.8.7 (revision 0123456789ab, 2026-01-02T03:04:05Z, go1.26.8, linux/amd64)")
            eng = openbddl.Engine(binary=exe)
            with self.assertRaises(openbddl.EngineError) as cm:
                eng.start()
            eng.close()
        e = cm.exception
        self.assertEqual(e.code, "version_mismatch")
        for want in ("9.8.7", openbddl.__version__, exe, "same release"):
            self.assertIn(want, str(e))

    def test_same_release_and_devel_accepted(self) -> None:
        for version in ("%s (revision 0123456789ab, go1.26.8, linux/amd64)" % openbddl.__version__,
                        "v%s (revision unknown: built without VCS information, go1.26)" % openbddl.__version__,
                        "(devel) (revision unknown: built without VCS information, go1.26)"):
            with self.subTest(version), tempfile.TemporaryDirectory() as d:
                with openbddl.Engine(binary=self.fake(d, version)) as eng:
                    self.assertEqual(eng.version, version)


if __name__ == "__main__":
    unittest.main()
