"""A PEP 517 build backend for openbddl that needs only the standard library.

`pip install ./python` runs it in an isolated environment with nothing
installed (pyproject.toml's build-system requires nothing), so the package
installs offline. It builds a pure-Python wheel of the openbddl package,
an sdist, and (PEP 660) an editable wheel. The wheel also records where the
Go source of the bddl engine is (this tree's parent, when it holds go.mod), so
that openbddl can build the engine with `go build` when no binary is found.
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "openbddl"
# Files of the package that are not Python modules but ship with it.
DATA = ("py.typed",)


def _project():
    text = open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8").read()
    section = text.split("[project]", 1)[1]

    def field(name):
        m = re.search(r'^%s\s*=\s*"([^"]*)"' % name, section, re.M)
        return m.group(1) if m else ""

    return {
        "name": field("name"),
        "version": field("version"),
        "summary": field("description"),
        "requires_python": field("requires-python"),
    }


def _metadata():
    p = _project()
    readme = open(os.path.join(HERE, "README.md"), encoding="utf-8").read()
    return (
        "Metadata-Version: 2.1\n"
        "Name: %(name)s\nVersion: %(version)s\nSummary: %(summary)s\n"
        "Requires-Python: %(requires_python)s\nLicense: MIT\n"
        "Description-Content-Type: text/markdown\n\n" % p
    ) + readme


def _dist_info():
    p = _project()
    return "%s-%s.dist-info" % (p["name"], p["version"])


def _wheel_name():
    p = _project()
    return "%s-%s-py3-none-any.whl" % (p["name"], p["version"])


def _package_files():
    root = os.path.join(HERE, PACKAGE)
    for name in sorted(os.listdir(root)):
        if name.endswith(".py") or name in DATA:
            yield "%s/%s" % (PACKAGE, name), os.path.join(root, name)


def _source_root():
    parent = os.path.dirname(HERE)
    if os.path.isfile(os.path.join(parent, "go.mod")):
        return parent
    return ""


class _Wheel:
    def __init__(self, path):
        self.zf = zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED)
        self.records = []

    def add(self, arcname, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        self.zf.writestr(arcname, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        self.records.append("%s,sha256=%s,%d" % (arcname, digest, len(data)))

    def close(self):
        record = _dist_info() + "/RECORD"
        self.records.append(record + ",,")
        self.zf.writestr(record, "\n".join(self.records) + "\n")
        self.zf.close()


def _write_dist_info(whl):
    di = _dist_info()
    whl.add(di + "/METADATA", _metadata())
    whl.add(di + "/WHEEL", "Wheel-Version: 1.0\nGenerator: openbddl-backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
    whl.add(di + "/top_level.txt", PACKAGE + "\n")


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
    with open(os.path.join(di, "WHEEL"), "w", encoding="utf-8") as f:
        f.write("Wheel-Version: 1.0\nGenerator: openbddl-backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
    return _dist_info()


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name = _wheel_name()
    whl = _Wheel(os.path.join(wheel_directory, name))
    for arcname, path in _package_files():
        with open(path, "rb") as f:
            whl.add(arcname, f.read())
    whl.add(PACKAGE + "/_source_root.txt", _source_root() + "\n")
    _write_dist_info(whl)
    whl.close()
    return name


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    name = _wheel_name()
    whl = _Wheel(os.path.join(wheel_directory, name))
    whl.add("__editable__.%s.pth" % PACKAGE, HERE + "\n")
    _write_dist_info(whl)
    whl.close()
    return name


def build_sdist(sdist_directory, config_settings=None):
    p = _project()
    base = "%s-%s" % (p["name"], p["version"])
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as tf:
        for rel in ["pyproject.toml", "README.md", "_build/backend.py"] + [a for a, _ in _package_files()]:
            tf.add(os.path.join(HERE, rel), arcname=base + "/" + rel)
        info = tarfile.TarInfo(base + "/PKG-INFO")
        data = _metadata().encode("utf-8")
        info.size = len(data)
        tf.addfile(info, io.BytesIO(data))
    return name
