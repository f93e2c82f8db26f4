"""Writes cases.json: values as marshal.dumps(v, 4) writes them and the
text json.dumps writes for them (or null when json.dumps refuses or
openbddl must not send them marshalled). Run by
`go test ./internal/pymarshal -update` (needs python3). Pythons 3.9, 3.10,
3.11, 3.12 and 3.13 write byte-identical marshal data for every case here
(checked when the file was made)."""
import json
import marshal
import sys

shared = ["ontop", "mug.n.04_1"]
nested = [1]
for _ in range(40):
    nested = [nested]
deep = []
x = deep
for _ in range(600):
    x.append([])
    x = x[0]

ok = {
    "none": None, "true": True, "false": False,
    "ints": [0, 1, -1, 255, 256, -5, 2**31 - 1, -2**31, 2**31, -2**31 - 1, 2**62, -2**63, 2**100, -(2**100) + 7],
    "floats": [0.0, -0.0, 1.0, -1.5, 0.1, 1e16, 1e15, 123456789012345.6, 1e-5, 1e-4, 0.00012345, 1e300, 5e-324,
               2.5e-7, 1.7976931348623157e308, 3.141592653589793, 100.0, 1e22, 12345678901234567.0],
    "nonfinite": [float("nan"), float("inf"), float("-inf")],
    "strings": ["", "a", "ontop", "caf\u00e9", "\u00e9" * 300, "a" * 300, "q\"uote\\back", "\n\r\t\b\f\x00\x1f\x7f",
                "\u2028", "\U0001F600", sys.intern("interned_name"), "x" * 256],
    "tuple": (1, "a", (2,), ()),
    "big_tuple": tuple(range(300)),
    "dict": {"step": 3, "facts": [["ontop", "a", "b"]], "false": [], "objects": {"a": {"pose": [0.0, 1.5, -2.25]}}},
    "empty": [[], {}, ()],
    "shared": [shared, shared, {"facts": [shared]}],
    "shared_key": [{"facts": 1}, {"facts": 2}],
    "nested": nested,
    "steps": [{"step": k, "facts" if k % 2 else "false": [["ontop", "mug.n.04_1", "sink.n.01_1"]]} for k in range(300)],
}
refused = {
    "bytes": b"abc",
    "bytes_in_list": [1, b"x"],
    "set": {1, 2},
    "frozenset": frozenset([1]),
    "complex": 1j,
    "int_key": {1: "a"},
    "tuple_key": {(1,): "a"},
    "none_key": {None: 1},
    "lone_surrogate": "a\ud800b",
    "ellipsis": ...,
    "deep": deep,
}
cases = []
for name, v in ok.items():
    cases.append({"name": name, "marshal": marshal.dumps(v, 4).hex(),
                  "json": json.dumps(v, separators=(",", ":"), ensure_ascii=False, allow_nan=True)})
for name, v in refused.items():
    cases.append({"name": name, "marshal": marshal.dumps(v, 4).hex(), "json": None})
with open(sys.argv[1], "w") as f:
    json.dump({"python": sys.version.split()[0], "cases": cases}, f, indent=1)
    f.write("\n")
