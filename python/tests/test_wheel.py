"""The build backend's wheels: the platform tag of each, the bundled
binary and the bddl command, byte-for-byte reproducible builds."""

import base64
import hashlib
import importlib.util
import os
import sys
import tarfile
import tempfile
import unittest
import zipfile
from unittest import mock

import openbddl

from .helpers import REPO

BACKEND = os.path.join(REPO, "python", "_build", "backend.py")


def _load_backend():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("openbddl_backend", BACKEND)
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


@unittest.skipUnless(os.path.exists(BACKEND), "the build backend is not here (an installed copy of the tests)")
class WheelTest(unittest.TestCase):
    def setUp(self) -> None:
        self.backend = _load_backend()
        self.dir = tempfile.TemporaryDirectory()
        self.fake = os.path.join(self.dir.name, "fake-bddl")
        with open(self.fake, "wb") as f:
            f.write(b"\x7fELF not really a binary\n")

    def tearDown(self) -> None:
        self.dir.cleanup()

    def build(self, settings: dict, out: str = "") -> str:
        out = out or tempfile.mkdtemp(dir=self.dir.name)
        with mock.patch.dict(os.environ, {"SOURCE_DATE_EPOCH": "1767225600"}):
            name = self.backend.build_wheel(out, settings)
        return os.path.join(out, name)

    def test_host_platform(self) -> None:
        cases = [
            ("Linux", "x86_64", "manylinux2014_x86_64"),
            ("Linux", "aarch64", "manylinux2014_aarch64"),
            ("Linux", "arm64", "manylinux2014_aarch64"),
            ("Darwin", "x86_64", "macosx_11_0_x86_64"),
            ("Darwin", "arm64", "macosx_11_0_arm64"),
            ("Windows", "AMD64", "win_amd64"),
            ("Windows", "ARM64", None),  # no release wheel: built from source
            ("Linux", "riscv64", None),
            ("FreeBSD", "amd64", None),
        ]
        for system, machine, want in cases:
            with self.subTest(system=system, machine=machine), mock.patch.object(self.backend, "_musl", return_value=False):
                self.assertEqual(self.backend.host_platform(system, machine), want)

    def test_platform_wheels(self) -> None:
        version = openbddl.__version__
        for tag in self.backend.PLATFORMS:
            with self.subTest(tag):
                path = self.build({"bddl-binary": self.fake, "platform": tag})
                self.assertEqual(os.path.basename(path), "openbddl-%s-py3-none-%s.whl" % (version, tag))
                exe = "openbddl/_bin/bddl.exe" if tag == "win_amd64" else "openbddl/_bin/bddl"
                with zipfile.ZipFile(path) as z:
                    di = "openbddl-%s.dist-info/" % version
                    wheel = z.read(di + "WHEEL").decode()
                    self.assertIn("Tag: py3-none-%s\n" % tag, wheel)
                    self.assertIn("Root-Is-Purelib: false\n", wheel)
                    self.assertEqual(z.read(di + "entry_points.txt").decode(),
                                     "[console_scripts]\nbddl = openbddl._launcher:main\n")
                    self.assertEqual(z.read(exe), b"\x7fELF not really a binary\n")
                    self.assertEqual((z.getinfo(exe).external_attr >> 16) & 0o777, 0o755)
                    self.assertIn("openbddl/_launcher.py", z.namelist())
                    self.assertIn("Version: %s\n" % version, z.read(di + "METADATA").decode())
                    self.check_record(z, di)

    def check_record(self, z: zipfile.ZipFile, di: str) -> None:
        rows = [r.split(",") for r in z.read(di + "RECORD").decode().splitlines()]
        listed = {r[0] for r in rows}
        self.assertEqual(listed, set(z.namelist()))
        for name, digest, size in rows:
            if name == di + "RECORD":
                continue
            data = z.read(name)
            want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            self.assertEqual((digest, int(size)), (want, len(data)), name)

    def test_reproducible(self) -> None:
        a = self.build({"bddl-binary": self.fake, "platform": "manylinux2014_aarch64"})
        b = self.build({"bddl-binary": self.fake, "platform": "manylinux2014_aarch64"})
        with open(a, "rb") as fa, open(b, "rb") as fb:
            self.assertEqual(hashlib.sha256(fa.read()).hexdigest(), hashlib.sha256(fb.read()).hexdigest())
        with zipfile.ZipFile(a) as z:
            self.assertEqual({i.date_time for i in z.infolist()}, {(2026, 1, 1, 0, 0, 0)})

    def test_pure_wheel(self) -> None:
        with mock.patch.object(sys, "stderr"):
            path = self.build({"pure": "true"})
        self.assertTrue(path.endswith("-py3-none-any.whl"), path)
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
        self.assertFalse([n for n in names if "_bin/" in n or n.endswith("entry_points.txt")], names)

    def test_no_go_pure_wheel_says_so(self) -> None:
        with mock.patch.object(self.backend, "_go", return_value=None), \
                mock.patch.object(self.backend, "host_platform", return_value=None), \
                mock.patch.object(sys, "stderr") as err:
            path = self.build({})
        self.assertTrue(path.endswith("-py3-none-any.whl"), path)
        said = "".join(c.args[0] for c in err.write.call_args_list)
        self.assertIn("building the bddl engine from source with Go", said)
        self.assertIn("Go is not installed", said)

    def test_sdist_carries_the_go_source(self) -> None:
        if not self.backend._source_root():
            self.skipTest("no Go source beside the package")
        out = tempfile.mkdtemp(dir=self.dir.name)
        with mock.patch.dict(os.environ, {"SOURCE_DATE_EPOCH": "1767225600"}):
            name = self.backend.build_sdist(out)
        base = name[:-len(".tar.gz")]
        with tarfile.open(os.path.join(out, name)) as tf:
            names = set(tf.getnames())
            mtimes = {m.mtime for m in tf.getmembers()}
        for want in ("pyproject.toml", "_build/backend.py", "openbddl/_launcher.py", "openbddl/_version.py", "PKG-INFO",
                     "engine/go.mod", "engine/go.sum", "engine/cmd/bddl/main.go", "engine/kb/default.yaml"):
            self.assertIn(base + "/" + want, names)
        self.assertFalse([n for n in names if n.endswith("_test.go") or "/testdata/" in n or "/python/" in n[len(base):]])
        self.assertEqual(mtimes, {1767225600})

    def test_bad_settings(self) -> None:
        with self.assertRaises(ValueError):
            self.backend.plan({"platform": "manylinux1_i686"})
        with self.assertRaises(ValueError):
            self.backend.plan({"bddl-binary": os.path.join(self.dir.name, "missing")})


if __name__ == "__main__":
    unittest.main()
