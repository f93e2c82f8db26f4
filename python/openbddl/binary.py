"""Finding (or building) the bddl binary the engine runs."""

import hashlib
import os
import shutil
import subprocess
import tempfile
from typing import Optional, Tuple

from .errors import EngineError

__all__ = ["binary_path", "bundled_binary", "find_binary", "resolve_binary", "source_root"]

ENV_BIN = "BDDL_BIN"
ENV_SOURCE = "BDDL_SOURCE"
MODULE = "module github.com/openbddl/bddl"


def _is_source(path: str) -> bool:
    try:
        with open(os.path.join(path, "go.mod"), encoding="utf-8") as f:
            return f.readline().strip() == MODULE
    except OSError:
        return False


def source_root() -> Optional[str]:
    """The Go source tree of bddl: ``$BDDL_SOURCE``, the tree the package
    was installed from (recorded at build time), or a tree the package
    sits in (running from a clone)."""
    cands = []
    if os.environ.get(ENV_SOURCE):
        cands.append(os.environ[ENV_SOURCE])
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        with open(os.path.join(here, "_source_root.txt"), encoding="utf-8") as f:
            recorded = f.read().strip()
        # The tree recorded at install time may since have been deleted
        # and made again by someone else: it is built only if it is
        # still this user's (or root's) and no one else can write to it.
        if recorded and _trusted_tree(recorded):
            cands.append(recorded)
    except OSError:
        pass
    cands.append(os.path.dirname(os.path.dirname(here)))  # python/openbddl -> repo
    for c in cands:
        if c and _is_source(c):
            return c
    return None


def _trusted_tree(root: str) -> bool:
    """Whether go build may run in root: the directories and files it
    builds the command from (and root's parents) belong to this user or
    root and are not writable by others."""
    if not hasattr(os, "geteuid"):
        return True  # no owners to compare (Windows)
    uid = os.geteuid()
    paths = [os.path.join(root, p) for p in ("", "go.mod", "go.sum", "cmd", os.path.join("cmd", "bddl"))]
    parent = os.path.dirname(os.path.abspath(root))
    while True:
        paths.append(parent)
        up = os.path.dirname(parent)
        if up == parent:
            break
        parent = up
    for p in paths:
        try:
            st = os.stat(p)
        except OSError:
            if p.endswith("go.sum"):
                continue
            return False
        sticky = st.st_mode & 0o1000
        if st.st_uid not in (uid, 0) or (st.st_mode & 0o002 and not sticky):
            return False
    return True


def _go() -> Optional[str]:
    go = shutil.which("go")
    if go is None and os.access("/usr/local/go/bin/go", os.X_OK):
        go = "/usr/local/go/bin/go"
    return go


def _cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "openbddl")


def _newest_source(root: str) -> float:
    newest = 0.0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d not in ("python", "testdata", "node_modules")]
        for name in filenames:
            if name.endswith(".go") or name in ("go.mod", "go.sum") or name.endswith((".json", ".yaml", ".bddl")):
                try:
                    newest = max(newest, os.stat(os.path.join(dirpath, name)).st_mtime)
                except OSError:
                    pass
    return newest


def build_binary(root: str, go: str) -> str:
    """``go build`` bddl from root into the cache directory, unless a
    binary newer than every source file is there; returns its path."""
    key = hashlib.sha256(os.path.abspath(root).encode()).hexdigest()[:16]
    out_dir = os.path.join(_cache_dir(), key)
    out = os.path.join(out_dir, "bddl")
    try:
        if os.path.getmtime(out) >= _newest_source(root):
            return out
    except OSError:
        pass
    os.makedirs(out_dir, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".bddl-", dir=out_dir)
    os.close(fd)
    try:
        env = dict(os.environ, CGO_ENABLED="0")
        proc = subprocess.run([go, "build", "-o", tmp, "./cmd/bddl"], cwd=root, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=900)
        if proc.returncode != 0:
            raise EngineError("go build of bddl in %s failed:\n%s" % (root, proc.stdout.decode(errors="replace")),
                              code="no_binary")
        os.chmod(tmp, 0o755)
        os.replace(tmp, out)  # atomic: a concurrent build cannot leave half a file
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return out


def resolve_binary(name: str) -> Optional[str]:
    """name as the absolute path of an executable file, once: a bare name
    is looked up on PATH (as a shell would run it), a path is made
    absolute against the current directory now, so that the file checked
    is the file run, whatever the directory at a later restart."""
    if os.sep in name or (os.altsep and os.altsep in name):
        path: Optional[str] = os.path.abspath(name)
    else:
        path = shutil.which(name)
        path = os.path.abspath(path) if path else None
    if path and os.path.isfile(path) and os.access(path, os.X_OK):
        return path
    return None


# Where a binary was found, as binary_path() reports it.
BUNDLED, FROM_ENV, FROM_PATH, GO_BUILD = "bundled", "BDDL_BIN", "PATH", "go build"


def bundled_binary(package_dir: Optional[str] = None) -> Optional[str]:
    """The bddl binary inside this package (a platform wheel's
    ``openbddl/_bin/bddl``), or None (a source checkout, a pure wheel)."""
    here = package_dir or os.path.dirname(os.path.abspath(__file__))
    exe = os.path.join(here, "_bin", "bddl.exe" if os.name == "nt" else "bddl")
    if os.path.isfile(exe) and os.access(exe, os.X_OK):
        return exe
    return None


def binary_path() -> Tuple[str, str]:
    """The bddl binary the engine runs and where it was found, in this
    order: ``"bundled"`` (the binary a platform wheel installs), the
    ``"BDDL_BIN"`` environment variable (made absolute once, here),
    ``"PATH"``, or ``"go build"`` of the source tree into
    ``~/.cache/openbddl``. Raises EngineError (code ``no_binary``) saying
    what to do when none works."""
    exe = bundled_binary()
    if exe:
        return exe, BUNDLED
    env = os.environ.get(ENV_BIN)
    if env:
        path = resolve_binary(env)
        if path:
            return path, FROM_ENV
        raise EngineError("$%s is %r, which is not an executable file" % (ENV_BIN, env), code="no_binary")
    found = shutil.which("bddl")
    if found:
        return os.path.abspath(found), FROM_PATH
    go, root = _go(), source_root()
    if go and root:
        return build_binary(root, go), GO_BUILD
    missing = "Go is not installed" if go is None else "the bddl source tree is not found (set %s)" % ENV_SOURCE
    raise EngineError(
        "no bddl binary: install a platform wheel of openbddl (it carries the engine), set %s to its path, "
        "put bddl on PATH (go install ./cmd/bddl), or install Go so that openbddl can build it (%s)"
        % (ENV_BIN, missing), code="no_binary")


def find_binary() -> str:
    """The path of :func:`binary_path`."""
    return binary_path()[0]
