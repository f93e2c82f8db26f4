"""A PEP 517 build backend for openbddl that needs only the standard library.

`pip install ./python` runs it in an isolated environment with nothing
installed (pyproject.toml's build-system requires nothing), so the package
installs offline. It builds wheels, an sdist, and (PEP 660) an editable
wheel.

A wheel carries the bddl engine when it can: a *platform wheel*
(``py3-none-manylinux2014_x86_64`` and the like) holds the binary as
``openbddl/_bin/bddl[.exe]`` and installs a ``bddl`` command that runs it.
The binary is

- the one given with ``-C bddl-binary=PATH`` (and ``-C platform=TAG`` for
  another platform's binary; tools/release builds the five release wheels
  so), or
- built here from the Go source with ``go build`` (this tree's parent, or
  the ``engine/`` folder of an sdist), for this machine, saying so on
  stderr.

Without Go or the source, the wheel is the pure ``py3-none-any`` one (no
engine inside: openbddl then finds one through $BDDL_BIN, PATH or Go at
first use), and the backend says so. ``-C pure=true`` asks for it.

Builds are reproducible: entries in a fixed order with fixed times
($SOURCE_DATE_EPOCH, else 1980-01-01) and modes.
"""

import base64
import hashlib
import io
import os
import platform
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "openbddl"
# Files of the package that are not Python modules but ship with it.
DATA = ("py.typed",)
MODULE = "module github.com/openbddl/bddl"

# The platforms a release has a wheel for: the wheel's platform tag, and
# GOOS and GOARCH of its binary. 11.0 is the oldest macOS Go 1.25 runs on
# (and the first on Apple silicon); manylinux2014 is the widest Linux tag
# pip installs, and a static binary (CGO_ENABLED=0) needs nothing of it.
PLATFORMS = {
    "manylinux2014_x86_64": ("linux", "amd64"),
    "manylinux2014_aarch64": ("linux", "arm64"),
    "macosx_11_0_x86_64": ("darwin", "amd64"),
    "macosx_11_0_arm64": ("darwin", "arm64"),
    "win_amd64": ("windows", "amd64"),
}

# Zip times cannot be before 1980.
_ZIP_EPOCH = 315532800


def _say(msg):
    sys.stderr.write("openbddl build: %s\n" % msg)
    sys.stderr.flush()


def _read(*path):
    with open(os.path.join(HERE, *path), encoding="utf-8") as f:
        return f.read()


def _version():
    text = _read(PACKAGE, "_version.py")
    m = re.search(r'^__version__\s*=\s*"([^"]+)"', text, re.M)
    if not m:
        raise RuntimeError("openbddl/_version.py has no __version__")
    return m.group(1)


def _project():
    text = _read("pyproject.toml")
    section = text.split("[project]", 1)[1]

    def field(name):
        m = re.search(r'^%s\s*=\s*"([^"]*)"' % name, section, re.M)
        return m.group(1) if m else ""

    return {
        "name": field("name"),
        "version": _version(),
        "summary": field("description"),
        "requires_python": field("requires-python"),
    }


def _metadata():
    p = _project()
    readme = _read("README.md")
    return (
        "Metadata-Version: 2.1\n"
        "Name: %(name)s\nVersion: %(version)s\nSummary: %(summary)s\n"
        "Requires-Python: %(requires_python)s\nLicense: MIT\n"
        "Description-Content-Type: text/markdown\n\n" % p
    ) + readme


def _dist_info():
    p = _project()
    return "%s-%s.dist-info" % (p["name"], p["version"])


def wheel_name(tag):
    """The file name of the wheel for platform tag (``any``: pure)."""
    p = _project()
    return "%s-%s-py3-none-%s.whl" % (p["name"], p["version"], tag)


def _wheel_file(tag):
    return ("Wheel-Version: 1.0\nGenerator: openbddl-backend\nRoot-Is-Purelib: %s\nTag: py3-none-%s\n"
            % ("true" if tag == "any" else "false", tag))


def _package_files():
    root = os.path.join(HERE, PACKAGE)
    for name in sorted(os.listdir(root)):
        if name.endswith(".py") or name in DATA:
            yield "%s/%s" % (PACKAGE, name), os.path.join(root, name)


def _is_source(path):
    try:
        with open(os.path.join(path, "go.mod"), encoding="utf-8") as f:
            return f.readline().strip() == MODULE
    except OSError:
        return False


def _source_root():
    """The Go source of bddl: an sdist's engine/ folder, or this tree's
    parent (a clone)."""
    for cand in (os.path.join(HERE, "engine"), os.path.dirname(HERE)):
        if _is_source(cand):
            return cand
    return ""


def _mtime():
    try:
        return max(int(os.environ["SOURCE_DATE_EPOCH"]), _ZIP_EPOCH)
    except (KeyError, ValueError):
        return _ZIP_EPOCH


def host_platform(system=None, machine=None):
    """The release platform tag of this machine (or of system and
    machine, as platform.system() and platform.machine() give them), or
    None when a release has no wheel for it."""
    system = (system or platform.system()).lower()
    machine = (machine or platform.machine()).lower()
    arch = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}.get(machine)
    for tag, (goos, goarch) in PLATFORMS.items():
        if {"linux": "linux", "darwin": "darwin", "windows": "windows"}.get(system) == goos and arch == goarch:
            if goos == "linux" and _musl():
                return None  # manylinux wheels do not install on musl
            return tag
    return None


def _musl():
    return sysconfig.get_config_var("HOST_GNU_TYPE") and "musl" in sysconfig.get_config_var("HOST_GNU_TYPE")


def _local_tag():
    """The tag of a wheel built here for an unlisted platform."""
    return re.sub(r"[^A-Za-z0-9_]", "_", sysconfig.get_platform())


def _go():
    go = shutil.which("go")
    if go is None and os.access("/usr/local/go/bin/go", os.X_OK):
        go = "/usr/local/go/bin/go"
    return go


def go_build(root, out, go, goos=None, goarch=None):
    """``go build`` of bddl from root into out: static (CGO_ENABLED=0),
    stripped, stamped with this release's version (tools/release builds
    the release binaries with the same flags and the commit)."""
    env = dict(os.environ, CGO_ENABLED="0")
    if goos:
        env["GOOS"], env["GOARCH"] = goos, goarch
    cmd = [go, "build", "-trimpath", "-ldflags", "-s -w -X main.buildVersion=" + _version(), "-o", out, "./cmd/bddl"]
    proc = subprocess.run(cmd, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        raise RuntimeError("go build of bddl in %s failed:\n%s" % (root, proc.stdout.decode(errors="replace")))


class _Zip:
    """A wheel being written: entries in the order added, each with the
    same time and a fixed mode, and RECORD at the end."""

    def __init__(self, path):
        self.zf = zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED)
        self.records = []
        self.when = time.gmtime(_mtime())[:6]

    def add(self, arcname, data, mode=0o644):
        if isinstance(data, str):
            data = data.encode("utf-8")
        info = zipfile.ZipInfo(arcname, date_time=self.when)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = (0o100000 | mode) << 16
        info.create_system = 3  # Unix, so that the mode is read back
        self.zf.writestr(info, data, compresslevel=9)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        self.records.append("%s,sha256=%s,%d" % (arcname, digest, len(data)))

    def close(self, dist_info):
        record = dist_info + "/RECORD"
        self.records.append(record + ",,")
        self.add(record, "\n".join(self.records) + "\n")
        self.zf.close()


def _write_wheel(wheel_directory, tag, binary, record_source=True):
    """The wheel for tag: the package, and binary (a path) as
    openbddl/_bin/bddl[.exe] with the bddl command when given. The path
    of the Go source is recorded for a wheel built here (openbddl builds
    from it when it finds no binary), not for one that bundles a binary
    given to it (a release's: that path means nothing elsewhere, and the
    wheel's bytes must not depend on where it was built)."""
    name = wheel_name(tag)
    di = _dist_info()
    whl = _Zip(os.path.join(wheel_directory, name))
    for arcname, path in _package_files():
        with open(path, "rb") as f:
            whl.add(arcname, f.read())
    # An sdist's engine/ is unpacked in a temporary directory pip deletes.
    clone = _source_root() if _source_root() == os.path.dirname(HERE) else ""
    whl.add(PACKAGE + "/_source_root.txt", (clone if record_source else "") + "\n")
    if binary:
        exe = "bddl.exe" if tag.startswith("win") else "bddl"
        with open(binary, "rb") as f:
            whl.add("%s/_bin/%s" % (PACKAGE, exe), f.read(), mode=0o755)
    whl.add(di + "/METADATA", _metadata())
    whl.add(di + "/WHEEL", _wheel_file(tag))
    if binary:
        whl.add(di + "/entry_points.txt", "[console_scripts]\nbddl = openbddl._launcher:main\n")
    whl.add(di + "/top_level.txt", PACKAGE + "\n")
    whl.close(di)
    return name


def _setting(config_settings, key, env):
    v = (config_settings or {}).get(key)
    if v is None:
        v = os.environ.get(env)
    return v or None


def plan(config_settings=None):
    """What build_wheel will do: (tag, binary path or None, goos, goarch,
    why) where a binary of None with a goos means go build."""
    binary = _setting(config_settings, "bddl-binary", "OPENBDDL_BDDL_BINARY")
    tag = _setting(config_settings, "platform", "OPENBDDL_PLATFORM")
    pure = (_setting(config_settings, "pure", "OPENBDDL_PURE") or "").lower() in ("1", "true", "yes")
    if tag and tag not in PLATFORMS:
        raise ValueError("platform %r: one of %s" % (tag, ", ".join(PLATFORMS)))
    if pure:
        return "any", None, None, None, "a pure wheel was asked for (pure=true): it carries no engine"
    if binary:
        if not os.path.isfile(binary):
            raise ValueError("bddl-binary %r is not a file" % binary)
        return tag or host_platform() or _local_tag(), os.path.abspath(binary), None, None, "bundling " + binary
    if tag:
        goos, goarch = PLATFORMS[tag]
        return tag, None, goos, goarch, "cross-compiling bddl for %s/%s with Go" % (goos, goarch)
    host = host_platform()
    if host:
        return host, None, None, None, "building the bddl engine for this machine from source with Go"
    return (_local_tag(), None, None, None, "no release wheel for this platform (%s %s): building the bddl engine "
            "from source with Go" % (platform.system(), platform.machine()))


# PEP 517 hooks.

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    di = os.path.join(metadata_directory, _dist_info())
    os.makedirs(di, exist_ok=True)
    with open(os.path.join(di, "METADATA"), "w", encoding="utf-8") as f:
        f.write(_metadata())
    return _dist_info()


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    tag, binary, goos, goarch, why = plan(config_settings)
    if tag == "any":
        _say(why)
        return _write_wheel(wheel_directory, "any", None)
    if binary:
        return _write_wheel(wheel_directory, tag, binary, record_source=False)
    go, root = _go(), _source_root()
    if not go or not root:
        _say("%s, but %s: the wheel is the pure one, without the engine; openbddl will use $BDDL_BIN or bddl on "
             "PATH (install a platform wheel of openbddl to have the engine inside)"
             % (why, "Go is not installed" if not go else "the Go source of bddl is not here"))
        return _write_wheel(wheel_directory, "any", None)
    _say("%s (go build ./cmd/bddl in %s)" % (why, root))
    tmp = tempfile.mkdtemp(prefix="openbddl-build-")
    try:
        out = os.path.join(tmp, "bddl.exe" if (goos or sys.platform) in ("windows", "win32") else "bddl")
        go_build(root, out, go, goos, goarch)
        return _write_wheel(wheel_directory, tag, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    di = _dist_info()
    whl = _Zip(os.path.join(wheel_directory, wheel_name("any")))
    whl.add("__editable__.%s.pth" % PACKAGE, HERE + "\n")
    whl.add(di + "/METADATA", _metadata())
    whl.add(di + "/WHEEL", _wheel_file("any"))
    whl.add(di + "/top_level.txt", PACKAGE + "\n")
    whl.close(di)
    return wheel_name("any")


# The Go source an sdist carries under engine/, so that a wheel built
# from it can build the engine: the module's packages and the files they
# embed, not its tests, docs, tools or the Python client.
_SKIP_DIRS = {"python", "docs", "tools", "deploy", "testdata", "node_modules"}
_ROOT_FILES = {"go.mod", "go.sum", "LICENSE"}


def _engine_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, check=True).stdout.decode()
        files = [f for f in out.split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if not d.startswith(".")]
            rel = os.path.relpath(dirpath, root)
            files += [os.path.normpath(os.path.join(rel, f)).replace(os.sep, "/") for f in filenames]
    for f in sorted(files):
        parts = f.split("/")
        if len(parts) == 1:
            if f in _ROOT_FILES:
                yield f
            continue
        if any(p.startswith(".") or p in _SKIP_DIRS for p in parts[:-1]) or f.endswith("_test.go"):
            continue
        if parts[-1] in ("bddl", "bddl.exe") or not os.path.isfile(os.path.join(root, f)):
            continue
        yield f


def build_sdist(sdist_directory, config_settings=None):
    p = _project()
    base = "%s-%s" % (p["name"], p["version"])
    name = base + ".tar.gz"
    when = _mtime()

    def add(tf, arcname, data, mode=0o644):
        info = tarfile.TarInfo(base + "/" + arcname)
        info.size, info.mtime, info.mode = len(data), when, mode
        info.uname = info.gname = ""
        tf.addfile(info, io.BytesIO(data))

    def read(path):
        with open(path, "rb") as f:
            return f.read()

    with open(os.path.join(sdist_directory, name), "wb") as raw:
        import gzip
        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=when, filename="") as gz:
            with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tf:
                for rel in ["pyproject.toml", "README.md", "_build/backend.py"] + [a for a, _ in _package_files()]:
                    add(tf, rel, read(os.path.join(HERE, rel)))
                root = _source_root()
                if root:
                    for rel in _engine_files(root):
                        add(tf, "engine/" + rel, read(os.path.join(root, rel)))
                else:
                    _say("the Go source of bddl is not here: the sdist carries none, and wheels built from it "
                         "will not carry the engine")
                add(tf, "PKG-INFO", _metadata().encode("utf-8"))
    return name
