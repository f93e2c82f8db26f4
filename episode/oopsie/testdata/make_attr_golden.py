"""Writes golden/h5py_attrs/<name>.bin: the attribute message libhdf5 (through
h5py, libver="latest": attribute message version 3) writes for each scalar
below. The Go tests compare the fork's writer output with these bytes, a check
independent of the writer. Run: /usr/bin/python3 make_attr_golden.py"""
import os
import struct
import tempfile

import h5py
import numpy as np

VALUES = {
    "success": np.float64(1.0),
    "severity": np.float64(0.25),
    "ratio": np.float32(0.5),
    "count": np.int64(3),
}


def message(buf, name):
    """The version 3 attribute message named name in the file's bytes."""
    key = name.encode() + b"\0"
    at = buf.index(key)
    start = at - 9  # version, flags, 3 sizes, name encoding
    ver, flags, nsz, dtsz, dssz, enc = struct.unpack_from("<BBHHHB", buf, start)
    assert ver == 3 and nsz == len(key), (ver, nsz)
    body = start + 9 + nsz + dtsz + dssz
    return buf[start:body], buf[body:body + 8]


with tempfile.TemporaryDirectory() as d:
    p = os.path.join(d, "a.h5")
    with h5py.File(p, "w", libver="latest") as f:
        g = f.create_group("g")
        for k, v in VALUES.items():
            g.attrs[k] = v
    buf = open(p, "rb").read()
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "h5py_attrs")
os.makedirs(out, exist_ok=True)
for k, v in VALUES.items():
    head, data = message(buf, k)
    with open(os.path.join(out, k + ".bin"), "wb") as w:
        w.write(head + data[: v.dtype.itemsize])

# A str attribute: libhdf5 writes a variable-length UTF-8 string. Only its
# message up to the value (the value is a global heap reference) is kept.
with tempfile.TemporaryDirectory() as d:
    p = os.path.join(d, "s.h5")
    with h5py.File(p, "w", libver="latest") as f:
        f.create_group("g").attrs["source"] = "human"
    buf = open(p, "rb").read()
head, _ = message(buf, "source")
with open(os.path.join(out, "source_str.bin"), "wb") as w:
    w.write(head)
