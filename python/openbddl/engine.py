"""The engine: a ``bddl serve`` child process spoken to in JSON Lines."""

import binascii
import itertools
import json
import marshal
import os
import pathlib
import re
import select
import subprocess
import threading
import time
import weakref
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Union

try:
    import fcntl
except ImportError:  # not on Windows
    fcntl = None  # type: ignore[assignment]

from ._contention import Contention
from ._version import __version__
from .binary import binary_path, resolve_binary
from .installed import server_env
from .errors import EngineError, error_from_response
from .results import (CheckResult, Explanation, Finding, InitResult, Literal, RunResult, SampleRecord,
                      StepResult, ValidationReport)

__all__ = ["Engine", "Session", "PROTOCOL"]

PROTOCOL = 1
"""The protocol version this client speaks (the server's handshake)."""

DEFAULT_SPIN = 100e-6
"""Seconds a wait for a response polls before it sleeps (Engine's spin)."""

if TYPE_CHECKING:  # pragma: no cover
    from .group import SessionGroup

PathLike = Union[str, "os.PathLike[str]"]
Step = Mapping[str, Any]

# Engines and sessions alive in this process, reset in a forked child
# (a lock another thread held at the fork would never be released there).
_engines: "weakref.WeakSet[Engine]" = weakref.WeakSet()
_sessions: "weakref.WeakSet[Session]" = weakref.WeakSet()
# A forked child's copies of its parent's pipes: kept so that they are
# never closed again by the garbage collector (their descriptors are
# closed at the fork, and the numbers may be reused).
_abandoned: List[Any] = []


def _after_fork_in_child() -> None:
    for eng in list(_engines):
        eng._forget_after_fork()
    for sess in list(_sessions):
        sess._lock = threading.Lock()


_FORK_HOOK = hasattr(os, "register_at_fork")
if _FORK_HOOK:
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _jsonable(o: Any) -> Any:
    """json.dumps default: numpy arrays and scalars, tuples of them."""
    if hasattr(o, "tolist"):
        return o.tolist()
    if hasattr(o, "item"):
        return o.item()
    if isinstance(o, (set, frozenset)):
        return sorted(o)
    if isinstance(o, os.PathLike):
        return os.fspath(o)
    raise TypeError("%r is not JSON serialisable" % (o,))


def _make_dumps() -> Any:
    # json.dumps builds its C encoder on every call (a third of the cost
    # of a step's request); the encoder is built once here when the C
    # accelerator is present, with the same options but no circular
    # check (a dict lookup per container, a quarter of the time on step
    # dicts): a circular value recurses until RecursionError.
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is not None:
        try:
            enc = make(None, _jsonable, json.encoder.encode_basestring_ascii, None, ":", ",", False, False, True)
            if "".join(enc({"a": [1.5, "\u00e9", None, True]}, 0)) == '{"a":[1.5,"\\u00e9",null,true]}':
                def dumps(v: Any) -> str:
                    if isinstance(v, (dict, list)):
                        try:
                            return "".join(enc(v, 0))
                        except RecursionError:
                            raise ValueError("a circular reference (or a value nested too deep to encode)") from None
                    return json.dumps(v, default=_jsonable, separators=(",", ":"), allow_nan=True)
                return dumps
        except Exception:  # another implementation's signature: the documented API
            pass
    return lambda v: json.dumps(v, default=_jsonable, separators=(",", ":"), allow_nan=True)


_dumps = _make_dumps()
"""Encode a request value: compact, numpy values as lists and numbers."""

_scan = json.decoder.JSONDecoder().scan_once


def _loads(line: bytes) -> Any:
    """Decode one response line: the scanner alone (json.loads adds an
    encoding detection and two regular-expression matches per line), the
    whole line checked to be one value; json.loads for anything else, so
    that a bad line raises its usual error."""
    s = line.decode("utf-8")
    try:
        v, end = _scan(s, 0)
    except (StopIteration, ValueError):
        return json.loads(s)
    if end != len(s) and s[end:].strip():
        return json.loads(s)
    return v


_leading_space = {bytes: re.compile(rb"\s*"), str: re.compile(r"\s*")}

# _join_lines works through the text in pieces of about this many
# characters: each piece's copies (slice, replace, encode) stay small and
# in cache, where whole-text copies of a long episode cost a page fault
# every 4 KiB (a 10,000-step text is 500 KB).
_JOIN_PIECE = 32 << 10


def _join_lines(text: Union[str, bytes, bytearray]) -> List[Any]:
    """JSON Lines (one step object a line) as a JSON array, in bytes:
    its pieces, written one after the other (never joined into a copy).

    Bytes stay bytes (not decoded and encoded again: the server checks
    each step's UTF-8 as bddl check does). When every line break is
    exactly between one step's ``}`` and the next one's ``{``, as a
    recorder writes them, each piece is joined by one ``replace`` at C
    speed; a line break anywhere else (a blank or indented line, CRLF,
    trailing spaces) makes it join the lines one by one, blank ones
    dropped."""
    if isinstance(text, bytearray):
        text = bytes(text)
    b = isinstance(text, bytes)
    nl, pat, sep = (b"\n", b"}\n{", b"},{") if b else ("\n", "}\n{", "},{")
    start = _leading_space[type(text)].match(text).end()  # type: ignore[union-attr]
    tail = text[max(start, len(text) - 256):]
    end = len(text) - (len(tail) - len(tail.rstrip()))
    if end - start >= 256 and len(tail.rstrip()) == 0:
        end = start + len(text[start:end].rstrip())
    line_end = text.find(nl, start, end)
    first = text[start:end if line_end < 0 else line_end]
    if (b'"bddl_episode"' if b else '"bddl_episode"') in first:
        raise ValueError("run: the steps begin with an episode header; a session has its own "
                         "(Engine.session(header=...)): pass the step lines only")
    parts: List[Any] = [b"["]
    i = start
    while i < end:
        j = text.find(nl, min(i + _JOIN_PIECE, end), end)
        if j < 0:
            j = end
        piece = text[i:j].replace(pat, sep)  # type: ignore[arg-type]
        if nl in piece or (j < end and text[j - 1:j + 2] != pat):
            return _join_each_line(text[start:end])
        parts.append(piece if b else piece.encode())  # type: ignore[union-attr]
        if j < end:
            parts.append(b",")
        i = j + 1
    parts.append(b"]")
    return parts


def _join_each_line(text: Union[str, bytes]) -> List[Any]:
    nl, comma = (b"\n", b",") if isinstance(text, bytes) else ("\n", ",")
    body = comma.join(ln for ln in (ln.strip() for ln in text.split(nl)) if ln)  # type: ignore[attr-defined]
    return [b"[", body if isinstance(body, bytes) else body.encode(), b"]"]


def _grow_pipes(proc: "subprocess.Popen[bytes]") -> None:
    """Let each pipe to and from the server hold 1 MiB (Linux; the
    default is 64 KiB): a whole episode given to Session.run is then
    written without waiting for the server to read each 64 KiB, and its
    answer read back the same way. Where the call is missing or refused,
    the pipes stay as they are."""
    setsize = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    if setsize is None:
        return
    for f in (proc.stdin, proc.stdout):
        try:
            fcntl.fcntl(f.fileno(), setsize, 1 << 20)  # type: ignore[union-attr]
        except OSError:
            pass


class _SpinReader:
    """Lines from a pipe in non-blocking mode: a wait first polls the pipe
    for up to ``spin`` seconds, then sleeps in poll(2). A response that
    comes within the window (a session step: tens of microseconds) is read
    without the wake-up of a sleeping thread, which on a loaded or virtual
    machine costs as much as the step itself; a slower one costs at most
    the window of polling (docs/python.md, *Measured speed*).

    Polling pays only where a processor is free for it: where the other
    processes hold more than all processors but the client's and the
    server's (``_contention``; on Linux; elsewhere where the load average
    is past the processors plus one), the polling thread takes the
    processor the other side needs, and a group step of 16 cost up to
    twice as much polled as slept (docs/python.md). There the waits sleep
    at once; the machine is looked at at most once a second. ``peer`` is
    the server's process id."""

    def __init__(self, fd: int, spin: float, timeout: Optional[float] = None, peer: Optional[int] = None) -> None:
        self.fd = fd
        self.spin = max(0.0, spin)
        self.timeout = timeout
        self.buf = bytearray()
        self.busy = False  # the other processes leave no processor to poll on
        self.checked = -2.0  # when busy was last found (perf_counter)
        self.every = 1.0  # seconds between looks (a tenth while the first is not decided)
        self.contention = Contention(peer) if self.spin else None
        if hasattr(select, "poll"):
            p = select.poll()
            p.register(fd, select.POLLIN)
            self.sleep: Callable[..., Any] = lambda t=None: p.poll(None if t is None else max(0, int(t * 1000)))
        else:  # pragma: no cover (POSIX without poll)
            self.sleep = lambda t=None: select.select([fd], [], [], t)
        os.set_blocking(fd, False)

    def readline(self) -> bytes:
        """The next line with its newline; at the end of the stream what is
        left (b"" when nothing), as a file's readline."""
        buf = self.buf
        i = buf.find(b"\n")
        if i < 0:
            start = time.perf_counter() if self.spin or self.timeout is not None else 0.0
            spin = self.spin
            if spin:
                if start - self.checked > self.every:
                    self.checked = start
                    self.busy = self._busy()
                if self.busy:
                    spin = 0.0
            while True:
                try:
                    chunk = os.read(self.fd, 1 << 16)
                except BlockingIOError:
                    if self.timeout is not None:
                        left = start + self.timeout - time.perf_counter()
                        if left <= 0:
                            raise _Silent()
                        if not spin or time.perf_counter() - start > spin:
                            self.sleep(left)
                    elif not spin or time.perf_counter() - start > spin:
                        self.sleep()
                    continue
                except InterruptedError:
                    continue
                if not chunk:
                    line = bytes(buf)
                    buf.clear()
                    return line
                n = len(buf)
                buf += chunk
                i = buf.find(b"\n", n)
                if i >= 0:
                    break
        line = bytes(buf[:i + 1])
        del buf[:i + 1]
        return line


    def _busy(self) -> bool:
        c = self.contention
        b = c.busy() if c is not None else None
        if b is not None:
            self.every = 1.0
            return b
        if c is not None and c.available:  # too soon: the look goes on
            self.every = 0.1
            return self.busy
        return _machine_busy()


def _machine_busy() -> bool:
    """Whether the load average is past the processors plus one (where it
    cannot be read: no)."""
    try:
        return os.getloadavg()[0] > (os.cpu_count() or 1) + 1
    except (OSError, AttributeError):
        return False


class _Silent(Exception):
    """The server sent nothing for the engine's timeout."""


_RELEASE = re.compile(r"v?(\d+\.\d+\.\d+)$")


def server_release(version: str) -> Optional[str]:
    """The release number at the head of a handshake's version
    (``"0.1.0 (revision ..., go1.26, linux/amd64)"`` gives ``"0.1.0"``,
    Go's ``"v0.1.0"`` too), or None for a development build (``go build``
    in a clone: ``"(devel)"`` or a pseudo-version), which any client may
    use: only two releases can be told apart."""
    m = _RELEASE.match(version.split(" ", 1)[0])
    return m.group(1) if m else None


_GEOMETRY = {"touch_tolerance": float, "vertical_range": float, "horizontal_range": float, "nextto_ratio": float,
             "horizontal_rays": int, "overlap_fraction": float}


def _options(negation: Optional[str], hold: Optional[int], at_end: Optional[bool], lenient: Optional[bool],
             per_step: Optional[bool], strict_pairs: Optional[bool], goal_formulas: Optional[str],
             geometry: Optional[Mapping[str, float]], transitions: Optional[bool] = None) -> Dict[str, Any]:
    """The evaluation options of check and session as the protocol's
    params, checked here so that a mistake is a TypeError or ValueError
    naming the keyword (the server would name bddl check's flag)."""
    out: Dict[str, Any] = {}
    for key, v in (("at_end", at_end), ("lenient", lenient), ("per_step", per_step),
                   ("strict_pairs", strict_pairs), ("transitions", transitions)):
        if v is not None:
            if not isinstance(v, bool):
                raise TypeError("%s must be a bool, not %s" % (key, type(v).__name__))
            out[key] = v
    if negation is not None:
        if negation not in ("reference", "strict"):
            raise ValueError('negation must be "reference" or "strict", not %r' % (negation,))
        out["negation"] = negation
    if hold is not None:
        if isinstance(hold, bool) or not isinstance(hold, int):
            raise TypeError("hold must be an int, not %s" % type(hold).__name__)
        if hold < 1:
            raise ValueError("hold must be at least 1, not %d" % hold)
        out["hold"] = hold
    if goal_formulas is not None:
        if not isinstance(goal_formulas, str):
            raise TypeError("goal_formulas must be a str, not %s" % type(goal_formulas).__name__)
        out["goal_formulas"] = goal_formulas
    if geometry is not None:
        g: Dict[str, Any] = {}
        for key, v in dict(geometry).items():
            want = _GEOMETRY.get(key)
            if want is None:
                raise TypeError("geometry: unknown key %r (known: %s)" % (key, ", ".join(sorted(_GEOMETRY))))
            if isinstance(v, bool) or not isinstance(v, (int, float)) or (want is int and not isinstance(v, int)):
                raise TypeError("geometry[%r] must be %s, not %s" % (key, "an int" if want is int else "a number",
                                                                  type(v).__name__))
            g[key] = v
        out["geometry"] = g
    return out


def _not_text(what: str, value: Any) -> None:
    """A definition's text given where a name or path goes is refused
    with the keyword that takes it."""
    if isinstance(value, str) and value.lstrip().startswith("("):
        raise ValueError("%s=%r is a definition's text, not an activity name or path: pass the text as "
                         "definition=..." % (what, value[:40] + ("..." if len(value) > 40 else "")))


class _Server:
    """One running ``bddl serve``: requests are written under a lock; the
    thread waiting for a response reads the stream for everyone (it hands
    others' responses over), so a single thread pays no hand-off."""

    def __init__(self, argv: List[str], env: Optional[Dict[str, str]], spin: float = 0.0,
                 timeout: Optional[float] = None, found: str = "") -> None:
        self.timeout = timeout
        # Buffered both ways: readline on an unbuffered pipe reads a byte
        # per system call; every request is flushed as it is written.
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                                         bufsize=1 << 16)
        except OSError as e:  # no such file, not executable
            raise EngineError("cannot run the bddl binary %r: %s" % (argv[0], e.strerror or e), code="no_binary") from e
        _grow_pipes(self.proc)
        self.pid = os.getpid()
        self.wlock = threading.Lock()
        # The thread that holds rlock reads the stream for everyone;
        # cond guards done and wakes the others (waiting counts them).
        self.rlock = threading.Lock()
        self.cond = threading.Condition()
        self.waiting = 0
        self.done: Dict[Any, Dict[str, Any]] = {}
        self.dead: Optional[EngineError] = None
        self.next_id = 0
        self.out = self.proc.stdout
        self.write = self.proc.stdin.write
        self.flush = self.proc.stdin.flush
        self.stdin_fd = self.proc.stdin.fileno()
        self.readline = self.out.readline
        # Where the pipe can be read without blocking (POSIX), responses
        # are read by _SpinReader: it polls for up to spin seconds before
        # it sleeps, which saves the wake-up of a blocked thread when the
        # answer comes within microseconds (a session step).
        self.reader: Optional[_SpinReader] = None
        if os.name == "posix":
            try:
                self.reader = _SpinReader(self.out.fileno(), spin, timeout, peer=self.proc.pid)
                self.readline = self.reader.readline
            except (OSError, ValueError, AttributeError):
                self.reader = None
        try:
            line = self.readline()
        except _Silent:
            self.proc.kill()
            self.proc.wait()
            raise EngineError("bddl serve sent no handshake within %g s (the engine's timeout)" % timeout, code="timeout")
        if not line:
            self.proc.wait()
            raise EngineError("bddl serve exited before its handshake (exit status %s): see its messages above"
                              % self.proc.returncode, code="server_exited")
        try:
            hand = _loads(line)
        except ValueError:
            raise EngineError("bddl serve did not start with a handshake: %r" % line[:200], code="protocol")
        if hand.get("protocol") != PROTOCOL:
            self.close()
            raise EngineError("bddl serve speaks protocol %r, this client %d: use the openbddl package of the same "
                              "bddl version" % (hand.get("protocol"), PROTOCOL), code="protocol")
        self.version: str = hand.get("version", "")
        release = server_release(self.version)
        if release is not None and release != __version__:
            self.close()
            raise EngineError("bddl serve is version %s and this openbddl client %s: they must be the same release "
                              "(the binary is %s%s); install the openbddl wheel of that release, or point BDDL_BIN "
                              "at a bddl %s" % (release, __version__, argv[0], found and ", found through " + found,
                                                __version__), code="version_mismatch")
        self.methods: List[str] = hand.get("methods", [])
        self.features: List[str] = hand.get("features") or []

    def send(self, method: str, params: Dict[str, Any]) -> int:
        with self.wlock:
            if self.dead:
                raise self.dead
            self.next_id += 1
            rid = self.next_id
            data = (_dumps({"id": rid, "method": method, "params": params}) + "\n").encode()
            try:
                self.proc.stdin.write(data)
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError, ValueError) as e:
                self._die("bddl serve is gone (writing a request: %s)" % e)
                raise self.dead  # type: ignore[misc]
        return rid

    def send_raw(self, body: str) -> int:
        """Send a request whose text after ``{"id":N,`` is given (the
        session methods pre-encode their prefix): one write system call."""
        with self.wlock:
            if self.dead:
                raise self.dead
            self.next_id += 1
            rid = self.next_id
            try:
                self.write_now(('{"id":%d,%s\n' % (rid, body)).encode())
            except (BrokenPipeError, OSError, ValueError) as e:
                self._die("bddl serve is gone (writing a request: %s)" % e)
                raise self.dead  # type: ignore[misc]
        return rid

    def send_raw_bytes(self, body: bytes) -> int:
        """send_raw for a body in bytes: one write, one system call (a
        group step's request, sent every tick of a vectorised loop)."""
        with self.wlock:
            if self.dead:
                raise self.dead
            self.next_id += 1
            rid = self.next_id
            try:
                self.write_now(b'{"id":%d,%s\n' % (rid, body))
            except (BrokenPipeError, OSError, ValueError) as e:
                self._die("bddl serve is gone (writing a request: %s)" % e)
                raise self.dead  # type: ignore[misc]
        return rid

    def write_now(self, data: bytes) -> None:
        """Write data to the server's input with os.write, past the
        buffered file (wlock held; every writer flushes that file before
        it lets go of wlock, so nothing is waiting in it): a step a tick
        saves the buffer's copy and its flush call."""
        n = os.write(self.stdin_fd, data)
        if n < len(data):  # a pipe may take part of a large write
            rest = memoryview(data)[n:]
            while rest:
                rest = rest[os.write(self.stdin_fd, rest):]

    def send_raw_parts(self, parts: Sequence[Any]) -> int:
        """send_raw for a body given as bytes-like pieces, written one
        after the other (a large body is never joined into one more copy)."""
        with self.wlock:
            if self.dead:
                raise self.dead
            self.next_id += 1
            rid = self.next_id
            try:
                self.write(b'{"id":%d,' % rid)
                for part in parts:
                    self.write(part)
                self.write(b"\n")
                self.flush()
            except (BrokenPipeError, OSError, ValueError) as e:
                self._die("bddl serve is gone (writing a request: %s)" % e)
                raise self.dead  # type: ignore[misc]
        return rid

    def _die(self, msg: str) -> None:
        code = self.proc.poll()
        if code is not None:
            msg += " (exit status %d)" % code
        self.dead = EngineError(msg, code="server_exited")

    def wait(self, rid: int, raw: Optional[bytes] = None) -> Any:
        """The response to request rid. A single thread reads its own
        response with no hand-off and no condition variable (the common
        case: a rollout loop); with several, whoever holds rlock reads and
        hands the others their responses. With ``raw``, a response this
        thread reads whose line begins with ``raw`` is returned as that
        line (bytes), not decoded (a group step's columns, decoded when
        read); one another thread read comes decoded."""
        if not self.rlock.acquire(False):
            with self.cond:
                self.waiting += 1
                try:
                    while True:
                        if rid in self.done:
                            return self.done.pop(rid)
                        if self.dead:
                            raise self.dead
                        if self.rlock.acquire(False):
                            break
                        self.cond.wait()
                finally:
                    self.waiting -= 1
        # This thread holds rlock: it reads for everyone until its response.
        # A thread that waits counts itself before it tries rlock, so one
        # that failed while rlock was held is counted here.
        try:
            resp = self.done.pop(rid, None)
            if resp is None:
                resp = self._read_until(rid, raw)
        finally:
            self.rlock.release()
            if self.waiting:
                with self.cond:
                    self.cond.notify_all()
        return resp

    def _read_until(self, rid: int, raw: Optional[bytes] = None) -> Any:
        """Read responses until rid's (rlock held), handing over others;
        rid's as its line when it begins with raw (wait)."""
        if self.dead:
            raise self.dead
        readline = self.readline
        while True:
            try:
                line = readline()
            except _Silent:
                # A server that stops answering is ended: its sessions are
                # lost, and the next request starts a new one.
                with self.cond:
                    self.dead = EngineError("bddl serve sent nothing for %g s (the engine's timeout; give "
                                            "Engine(timeout=...) a larger one or None): it was stopped" % self.timeout,
                                            code="timeout")
                    self.cond.notify_all()
                self.proc.kill()
                raise self.dead
            if not line:
                with self.cond:
                    self._die("bddl serve exited")
                    self.cond.notify_all()
                    raise self.dead  # type: ignore[misc]
            if raw is not None and line.startswith(raw):
                return line
            try:
                resp = _loads(line)
                if not isinstance(resp, dict):
                    raise ValueError("not a JSON object")
            except ValueError as e:  # json.JSONDecodeError, UnicodeDecodeError
                with self.cond:
                    self.dead = EngineError("bddl serve wrote a line that is not a response (%s): %r; it was stopped"
                                            % (e, line[:200]), code="protocol")
                    self.cond.notify_all()
                self.proc.kill()
                raise self.dead
            got = resp.get("id")
            # An error with no id answers a line the server could not
            # read an id from; this client always writes the id first,
            # so it does not happen, but if it did, the reader takes it
            # rather than wait for ever.
            if got == rid or got is None:
                return resp
            with self.cond:
                self.done[got] = resp
                self.cond.notify_all()

    def close(self) -> None:
        """End the server: close its input (it answers what is in flight
        and exits), wait briefly, then kill it."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        try:
            self.out.close()
        except OSError:
            pass

    def abandon(self) -> None:
        """In a forked child: drop the parent's server without touching it."""
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                os.close(f.fileno())
            except (OSError, ValueError):
                pass
        _abandoned.append(self)
        self.proc.returncode = 0  # never waited for: it is not this process's child


class Engine:
    """A bddl engine: a ``bddl serve`` process, started on first use.

    ``kb`` is a knowledge base: a BEHAVIOR-1K ``generated_data`` folder, the
    ``bddl`` package folder holding it, a checkout's root, or a YAML file
    (default: ``$BDDL_KB``, else ``bddl.toml``'s, else the BEHAVIOR-1K tree
    around a definition named by path, else that of the installed ``bddl``
    package, :func:`openbddl.installed_kb`, else the embedded example one,
    which refuses definitions whose synsets it does not know); ``activities`` a BEHAVIOR-1K
    ``activity_definitions`` directory to find activities by name in;
    ``binary`` the bddl executable (default: :func:`openbddl.binary_path`).
    ``spin`` is how long, in seconds, a wait for a response polls the pipe
    before it sleeps (default 100 µs; the server likewise polls 50 µs for
    the next request while they come quickly): a session step's round trip
    then costs no thread wake-up, at the price of that much CPU per
    request. ``spin=0`` turns polling off on both sides; neither side polls
    while the other processes leave it no processor (on Linux, read from
    ``/proc`` once a second: the machine's busy time less the client's and
    the server's; elsewhere the client goes by the load average), where
    polling takes the processor the other side needs.
    ``timeout`` is
    how many seconds a wait for a response may pass with nothing from the
    server (default None: no limit): past it the server is stopped and
    EngineError (code ``timeout``) raised; the next call starts a new one.
    A line from the server that is not a JSON response is EngineError
    (code ``protocol``) likewise. (POSIX; elsewhere there is no timeout.)

    An Engine is safe to share between threads. It is fork-safe: a child
    process that inherits one starts its own server on first use (its
    sessions stay with the parent). The server exits when the engine is
    closed, when this process exits, or when its input ends.

    >>> with Engine() as eng:
    ...     s = eng.session("tidying_the_living_room")
    ...     r = s.step({"step": 0})
    """

    def __init__(self, kb: Optional[PathLike] = None, activities: Optional[PathLike] = None,
                 binary: Optional[PathLike] = None, env: Optional[Mapping[str, str]] = None,
                 spin: float = DEFAULT_SPIN, timeout: Optional[float] = None) -> None:
        if not 0 <= spin <= 1:
            raise ValueError("spin: seconds between 0 and 1, not %r" % (spin,))
        if timeout is not None and not timeout > 0:
            raise ValueError("timeout: seconds > 0 or None, not %r" % (timeout,))
        self.spin = float(spin)
        self.timeout = timeout
        self.kb = os.fspath(kb) if kb is not None else None
        self.activities = os.fspath(activities) if activities is not None else None
        self._binary = None
        self._found = "Engine(binary=...)"
        if binary is not None:
            # Resolved once, now: a restart runs the same file, whatever
            # the current directory then.
            self._binary = resolve_binary(os.fspath(binary))
            if self._binary is None:
                raise EngineError("binary %r is not an executable file" % (os.fspath(binary),), code="no_binary")
        self._env = dict(env) if env is not None else None
        self._lock = threading.Lock()
        self._server: Optional[_Server] = None
        self._closed = False
        _engines.add(self)

    # -- lifecycle -----------------------------------------------------

    def __enter__(self) -> "Engine":
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def start(self) -> "Engine":
        """Start the server now (otherwise it starts on first use)."""
        self._get()
        return self

    @property
    def version(self) -> str:
        """The server's version (from its handshake)."""
        return self._get().version

    def _get(self) -> _Server:
        srv = self._server
        if srv is not None and srv.pid == os.getpid() and srv.dead is None:
            return srv
        with self._lock:
            if self._closed:
                raise EngineError("the engine is closed", code="closed")
            srv = self._server
            if srv is not None and srv.pid != os.getpid():
                srv.abandon()  # belt and braces: without register_at_fork
                srv = None
            if srv is not None and srv.dead is not None:
                srv.close()  # a server that died is replaced: its sessions are lost
                srv = None
            if srv is None:
                if self._binary is None:
                    # Once: restarts run the same file.
                    self._binary, self._found = binary_path()
                argv = [self._binary]
                if self.kb:
                    argv += ["--kb", self.kb]
                argv.append("serve")
                if self.spin == 0:
                    argv += ["--spin", "0"]  # no polling on either side
                srv = _Server(argv, server_env(self._env), self.spin, self.timeout, self._found)
                self._server = srv
            return srv

    def _forget_after_fork(self) -> None:
        self._lock = threading.Lock()
        srv, self._server = self._server, None
        if srv is not None:
            srv.abandon()

    def close(self) -> None:
        """Stop the server. Further calls raise EngineError."""
        with self._lock:
            self._closed = True
            srv, self._server = self._server, None
        if srv is not None and srv.pid == os.getpid():
            srv.close()

    # -- requests ------------------------------------------------------

    def call(self, method: str, params: Optional[Dict[str, Any]] = None) -> Any:
        """Send one request and return its result (a dict), raising the
        mapped exception on an error response. The methods and their
        params are in docs/python.md and ``bddl schema serve``."""
        srv = self._get()
        resp = srv.wait(srv.send(method, params or {}))
        if "error" in resp:
            raise error_from_response(resp["error"])
        return resp.get("result")

    def _raw_call(self, srv: _Server, body: str) -> Any:
        resp = srv.wait(srv.send_raw(body))
        if "error" in resp:
            raise error_from_response(resp["error"])
        return resp["result"]

    def _raw_call_parts(self, srv: _Server, parts: Sequence[Any]) -> Any:
        resp = srv.wait(srv.send_raw_parts(parts))
        if "error" in resp:
            raise error_from_response(resp["error"])
        return resp["result"]

    def _eval_params(self, opts: Dict[str, Any]) -> Dict[str, Any]:
        p = {k: v for k, v in opts.items() if v is not None}
        if self.activities and "activities" not in p:
            p["activities"] = self.activities
        return p

    @staticmethod
    def _definition(text_or_path: Union[str, PathLike], name: Optional[str] = None) -> Dict[str, Any]:
        if isinstance(text_or_path, os.PathLike):
            return {"path": os.fspath(text_or_path)}
        s = str(text_or_path)
        if "(" in s:
            p: Dict[str, Any] = {"text": s}
            if name:
                p["name"] = name
            return p
        if os.path.exists(s):
            return {"path": s}
        return {"activity": s}

    def validate(self, text_or_path: Union[str, PathLike], *, name: Optional[str] = None,
                 scenes: bool = False) -> ValidationReport:
        """Validate a definition: its text (``name`` is used in positions), a
        path, or an activity name. Returns every finding; a definition
        with errors is a report with ``ok`` False, not an exception."""
        p = self._definition(text_or_path, name)
        p["scenes"] = scenes
        if self.activities:
            p["activities"] = self.activities
        r = self.call("validate", p)
        return ValidationReport(file=r["file"], problem=r["problem"],
                                findings=tuple(Finding.from_record(f) for f in r["findings"]),
                                errors=r["errors"], warnings=r["warnings"], notes=r["notes"])

    def explain(self, text_or_path: Union[str, PathLike], *, name: Optional[str] = None) -> Explanation:
        """A problem's :init and :goal in plain words. Raises
        DefinitionError when it does not parse."""
        p = self._definition(text_or_path, name)
        if self.activities and "activity" in p:
            p["activities"] = self.activities
        r = self.call("explain", p)
        return Explanation(problem=r["problem"], domain=r["domain"], init=tuple(r["init"]), goal=tuple(r["goal"]))

    def kb_show(self, *synsets: str) -> List[Dict[str, Any]]:
        """What the knowledge base knows of synsets (``bddl kb show``
        records). An unknown synset raises EngineError ``not_found``."""
        return list(self.call("kb.show", {"synsets": list(synsets)})["synsets"])

    def check(self, episode: Union[PathLike, Sequence[Union[str, Mapping[str, Any]]]], *,
              activity: Optional[str] = None, name: Optional[str] = None, negation: Optional[str] = None,
              hold: Optional[int] = None, at_end: Optional[bool] = None, lenient: Optional[bool] = None,
              per_step: Optional[bool] = None, transitions: Optional[bool] = None,
              strict_pairs: Optional[bool] = None, goal_formulas: Optional[str] = None,
              geometry: Optional[Mapping[str, float]] = None) -> CheckResult:
        """Check one episode as ``bddl check --format json`` does: a file
        path, or its lines held in memory (header first; dicts or JSON
        strings). The options are check's: ``negation`` ("reference" or
        "strict"), ``hold`` (steps the goal must hold), ``at_end``,
        ``lenient``, ``per_step``, ``transitions``, ``strict_pairs``,
        ``goal_formulas``, ``geometry`` (a dict of tolerances:
        ``touch_tolerance``, ``vertical_range``, ``horizontal_range``,
        ``nextto_ratio``, ``horizontal_rays``, ``overlap_fraction``)."""
        opts = _options(negation, hold, at_end, lenient, per_step, strict_pairs, goal_formulas, geometry, transitions)
        recs = self._check(episode, activity, name, opts)
        if len(recs) != 1:
            raise ValueError("check takes one episode; %d matched: use check_many" % len(recs))
        return recs[0]

    def check_many(self, episodes: PathLike, *, activity: Optional[str] = None, negation: Optional[str] = None,
                   hold: Optional[int] = None, at_end: Optional[bool] = None, lenient: Optional[bool] = None,
                   per_step: Optional[bool] = None, transitions: Optional[bool] = None,
                   strict_pairs: Optional[bool] = None, goal_formulas: Optional[str] = None,
                   geometry: Optional[Mapping[str, float]] = None) -> List[CheckResult]:
        """Check every episode of a directory or glob (as ``bddl check
        --episode``), one result each, in order; the options are check's."""
        opts = _options(negation, hold, at_end, lenient, per_step, strict_pairs, goal_formulas, geometry, transitions)
        return self._check(episodes, activity, None, opts)

    def _check(self, episode: Any, activity: Optional[str], name: Optional[str],
               options: Dict[str, Any]) -> List[CheckResult]:
        _not_text("activity", activity)
        p = self._eval_params(options)
        if activity:
            p["activity"] = activity
        if isinstance(episode, (str, os.PathLike)):
            p["episode"] = os.fspath(episode)
        else:
            p["lines"] = list(episode)
            if name:
                p["name"] = name
        return [StepResult.from_record(r) for r in self.call("check", p)["records"]]

    def sample(self, activity: Union[str, PathLike], *, scene: Optional[str] = None, seed: int = 0, n: int = 1,
               goal: bool = False, output: Optional[PathLike] = None) -> List[SampleRecord]:
        """Sample n verified configurations of an activity (a name, path or
        text) as ``bddl sample`` does: written under ``output`` when given,
        else returned as episode lines (``SampleRecord.episode``)."""
        p = self._definition(activity)
        p.update(seed=seed, n=n, goal=goal)
        if scene:
            p["scene"] = scene
        if output is not None:
            p["output"] = os.fspath(output)
        if self.activities and "activity" in p:
            p["activities"] = self.activities
        out = []
        for r in self.call("sample", p)["configurations"]:
            out.append(SampleRecord(activity=r.get("activity", ""), scene=r.get("scene", ""), seed=r.get("seed", 0),
                                    index=r.get("index", 0), status=r.get("status", ""), ms=r.get("ms", 0.0),
                                    file=r.get("file", ""), reason=r.get("reason"),
                                    episode=tuple(r.get("episode") or ())))
        return out

    def session(self, activity: Optional[Union[str, PathLike]] = None, header: Optional[Mapping[str, Any]] = None,
                transitions: bool = True, *, definition: Optional[str] = None, name: Optional[str] = None,
                negation: Optional[str] = None, hold: Optional[int] = None, at_end: Optional[bool] = None,
                lenient: Optional[bool] = None, per_step: Optional[bool] = None,
                strict_pairs: Optional[bool] = None, goal_formulas: Optional[str] = None,
                geometry: Optional[Mapping[str, float]] = None) -> "Session":
        """Open a session checking an episode step by step.

        ``activity`` is a name (in the examples or ``activities``) or a
        path; ``definition`` a problem's text instead. ``header`` is an
        episode header (its ``objects``, ``closed_world``, ``dt``; default
        none): the first line of a sample's episode works as is.
        ``transitions`` applies the knowledge base's transition rules after
        each step (``bddl check --transitions``). The other options are
        check's (see :meth:`check`); an unknown keyword is a TypeError.
        """
        _not_text("activity", activity)
        p = self._eval_params(_options(negation, hold, at_end, lenient, per_step, strict_pairs, goal_formulas,
                                       geometry, transitions))
        if activity is not None:
            p["activity"] = os.fspath(activity)
        if definition is not None:
            p["definition"] = definition
        if header is not None:
            # A session is open-ended: the step count a file's header
            # declares (a sample's says 1) does not bound it.
            p["header"] = {k: v for k, v in header.items() if k != "steps"}
        if name:
            p["name"] = name
        r = self.call("session.open", p)
        return Session(self, self._get(), r["session"], r.get("activity", ""), tuple(r.get("conjuncts") or ()))

    def sessions(self, activities: Sequence[Union[str, PathLike]], headers: Optional[Sequence[Optional[Mapping[str, Any]]]] = None,
                 transitions: bool = True, *, names: Optional[Sequence[str]] = None,
                 negation: Optional[str] = None, hold: Optional[int] = None, at_end: Optional[bool] = None,
                 lenient: Optional[bool] = None, per_step: Optional[bool] = None,
                 strict_pairs: Optional[bool] = None, goal_formulas: Optional[str] = None,
                 geometry: Optional[Mapping[str, float]] = None) -> "SessionGroup":
        """Open one session per activity (a vectorised environment's N
        episodes; different activities allowed), stepped together in one
        round trip by ``SessionGroup.step`` (openbddl/group.py). ``headers``
        is one episode header per activity, or None; ``names`` the objects
        of the pose arrays ``SessionGroup.step`` takes; ``transitions`` and
        the other options as ``session``'s (an unknown keyword is a
        TypeError)."""
        from .group import open_group
        for a in activities:
            _not_text("activities[...]", a)
        options = _options(negation, hold, at_end, lenient, per_step, strict_pairs, goal_formulas, geometry)
        return open_group(self, activities, headers, transitions, names, options)


def _offset(err: Dict[str, Any], start: int) -> Dict[str, Any]:
    """A run part's error with its step index counted from the run's start."""
    if start and isinstance(err.get("index"), int):
        err = dict(err, index=err["index"] + start)
    return err


class Session:
    """An episode checked step by step (``Engine.session``). Each step's
    result is the record ``bddl check --format json`` gives for the
    episode ended at that step. Use as a context manager to close it."""

    def __init__(self, engine: Engine, server: _Server, sid: str, activity: str, conjuncts: Sequence[str]) -> None:
        self.engine = engine
        self.id = sid
        self.activity = activity
        self.conjuncts = tuple(conjuncts)
        self._server = server
        self._next = 0
        # The SessionGroup this session is in, which may hold its next
        # number unread (SessionGroup._sync): read before _next is.
        self._group: Any = None
        self._marshal = True  # run() sends lists marshalled until the server finds a value JSON cannot hold
        self._chains = itertools.count(1)
        self._lock = threading.Lock()
        # The session methods' request text after the id, pre-encoded
        # (the session named first: the server routes it without reading on).
        head = '"method":"%s","params":{"session":' + json.dumps(sid) + ","
        self._step_lean = head % "session.step" + '"step":'
        self._step_full = head % "session.step" + '"explain":true,"step":'
        self._run_lean = head % "session.run"
        self._run_full = head % "session.run" + '"explain":true,'
        _sessions.add(self)

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _srv(self) -> _Server:
        srv = self.engine._get()
        if srv is not self._server:
            raise EngineError("session %s belongs to a server this process no longer has (after a fork, or a "
                              "server that died): open a new session" % self.id, code="unknown_session")
        return srv

    def _call(self, method: str, params: Dict[str, Any]) -> Any:
        if self.engine._get() is not self._server:
            raise EngineError("session %s belongs to a server this process no longer has (after a fork, or a "
                              "server that died): open a new session" % self.id, code="unknown_session")
        # The session first: the server reads it without scanning the rest.
        return self.engine.call(method, {"session": self.id, **params})

    def _catch_up(self) -> None:
        g = self._group
        if g is not None and g._pending is not None:
            g._catch_up()

    def _line(self, step: Optional[Step], kw: Dict[str, Any]) -> Dict[str, Any]:
        self._catch_up()
        line = dict(step) if step is not None else {}
        for k, v in kw.items():
            if v is not None:
                line[k] = v
        if "step" not in line:
            line["step"] = self._next
        return line

    def _advance(self, line: Mapping[str, Any]) -> None:
        if self._group is not None:
            self._catch_up()
        try:
            self._next = int(line["step"]) + 1
        except (TypeError, ValueError):
            pass

    def step(self, step: Optional[Step] = None, *, objects: Optional[Mapping[str, Any]] = None,
             facts: Optional[Iterable[Sequence[str]]] = None, false: Optional[Iterable[Sequence[str]]] = None,
             unset: Optional[Iterable[Sequence[str]]] = None, t: Optional[float] = None,
             explain: bool = False) -> StepResult:
        """Apply one step and evaluate: ``step`` is a dict exactly as a line
        of the episode format, or give its fields as keywords. A missing
        ``"step"`` number is the previous one plus 1. The result is the
        lean record (success, scores, goal truth, rules fired);
        ``explain=True`` asks for the whole record of ``bddl check``, with
        the unsatisfied and undetermined literals. A step the reader
        refuses raises StepError (and, unless the session is ``lenient``,
        stops it, as ``bddl check`` stops the episode)."""
        kw = None
        if step is None or objects is not None or facts is not None or false is not None or unset is not None \
                or t is not None or "step" not in step:
            kw = {"objects": objects, "facts": list(facts) if facts is not None else None,
                  "false": list(false) if false is not None else None,
                  "unset": list(unset) if unset is not None else None, "t": t}
        with self._lock:
            # The hot path sends the step as given, not copied.
            line = step if kw is None else self._line(step, kw)
            body = (self._step_full if explain else self._step_lean) + _dumps(line) + "}}"
            self._advance(line)
            srv = self._server
            # The engine's server is this session's, alive, in this process
            # (a fork resets the engine: _after_fork_in_child), checked
            # without a system call; _srv otherwise, for its error.
            if self.engine._server is not srv or srv.dead is not None or not _FORK_HOOK:
                srv = self._srv()
            resp = srv.wait(srv.send_raw(body))
        if "error" in resp:
            raise error_from_response(resp["error"])
        return StepResult.from_record(resp["result"])

    def init(self, step: Optional[Step] = None, **kw: Any) -> InitResult:
        """Whether ``:init`` holds, after applying ``step`` if given (the
        first step, typically), and which literals do not."""
        with self._lock:
            params: Dict[str, Any] = {}
            if step is not None or kw:
                line = self._line(step, kw)
                self._advance(line)
                params["step"] = line
            r = self._call("session.init", params)
        return InitResult(ok=r["init_ok"], truth=r["init"], failures=tuple(Literal.from_record(x) for x in r["init_failures"]))

    def run(self, steps: Union[Iterable[Step], str, bytes, PathLike], *, explain: bool = False,
            goals: bool = False) -> RunResult:
        """Apply many steps in one call (a whole episode held in memory):
        the result after the last (the lean record unless ``explain``),
        and with ``goals`` the goal's truth after each
        (``RunResult.goals``, one string per step). It is one round trip,
        but for a list of more than 1,024 steps, which goes in parts of
        that many, pipelined; as with one request, a bad step leaves the
        steps before it applied and none after it.

        ``steps`` is a list of step dicts, or steps already encoded as
        JSON Lines (``str`` or ``bytes``, one step per line), or the path
        of such a file (an ``os.PathLike``, or a ``str`` without a ``{``);
        a header line there is refused: the session has its header. A bad
        step raises StepError with its ``index``.

        A list is sent as ``marshal.dumps(steps, 4)`` writes it (a tenth
        of the time ``json.dumps`` takes); the server reads it into
        exactly the JSON ``json.dumps`` would write. A list holding
        anything JSON cannot hold as it is (a numpy value, bytes, a set,
        a subclass of dict) is sent as JSON, numpy values as numbers and
        lists, and the session keeps to JSON from then on."""
        encoded = self._encode_steps(steps)
        with self._lock:
            srv = self._srv()
            if isinstance(encoded, list) and encoded and isinstance(encoded[0], bytes):
                r = self._run_request(srv, encoded, explain, goals)
                res, n, gs = r["result"], r["steps"], tuple(r.get("goals") or ())
            else:
                res, n, gs = self._run_parts(srv, encoded, explain, goals)
            result = StepResult.from_record(res)
            if n:
                self._catch_up()
                self._next = result.step + 1
        return RunResult(result=result, steps=n, goals=gs)

    _run_part = 1024
    """Steps a part of a marshalled run: the server applies one part while
    the next is encoded."""

    _run_window = 2
    """Parts of a run in flight: their responses (a goals column each) wait
    in the output pipe, which must hold them (64 KiB where it cannot be
    enlarged)."""

    def _run_head(self, explain: bool, goals: bool, chain: Optional[str], field: str) -> bytes:
        h = (self._run_full if explain else self._run_lean) + '"goals":%s,' % ("true" if goals else "false")
        if chain:
            h += '"chain":"%s",' % chain
        return (h + field).encode()

    def _run_request(self, srv: _Server, pieces: List[Any], explain: bool, goals: bool) -> Dict[str, Any]:
        return self.engine._raw_call_parts(srv, [self._run_head(explain, goals, None, '"steps":')] + pieces + [b"}}"])

    def _run_parts(self, srv: _Server, lst: List[Any], explain: bool, goals: bool) -> Any:
        """A list of steps, marshalled, in parts of _run_part steps chained
        on the server (a failed part stops the rest), two in flight: while
        the server applies one, the next is encoded. From a part the server
        finds a value JSON cannot hold in (or that marshal cannot write),
        the rest goes as one JSON request, and the session keeps to JSON."""
        starts = list(range(0, len(lst), self._run_part)) or [0]
        chain = "r%d" % next(self._chains) if len(starts) > 1 else None
        pending: List[Any] = []
        state: Dict[str, Any] = {"n": 0, "goals": [], "last": None, "error": None, "json_from": None}

        def collect() -> None:
            rid, start = pending.pop(0)
            resp = srv.wait(rid)
            err = resp.get("error")
            if err is None:
                r = resp["result"]
                state["n"] += r["steps"]
                state["goals"].extend(r.get("goals") or ())
                state["last"] = r["result"]
            elif state["error"] is None and state["json_from"] is None:
                if err.get("code") == "unsupported_value":
                    state["json_from"] = start  # nothing of it applied
                else:
                    state["error"] = _offset(err, start)

        try:
            for k, start in enumerate(starts):
                if state["error"] is not None or state["json_from"] is not None:
                    break
                part = lst[start:start + self._run_part]
                try:
                    b64 = binascii.b2a_base64(marshal.dumps(part, 4), newline=False)
                except (ValueError, TypeError, RecursionError):  # an object marshal cannot write, or a cycle
                    state["json_from"] = start
                    break
                head = self._run_head(explain and k == len(starts) - 1, goals, chain, '"steps_marshal":"')
                pending.append((srv.send_raw_parts([head, b64, b'"}}']), start))
                if len(pending) > self._run_window - 1:
                    collect()
        finally:
            while pending:  # every response read, whatever happens
                collect()
        if state["error"] is not None:
            raise error_from_response(state["error"])
        start = state["json_from"]
        if start is not None:
            self._marshal = False
            try:
                r = self._run_request(srv, self._json_steps(lst[start:]), explain, goals)
            except EngineError as e:
                if not start or not isinstance(e.data, dict):
                    raise
                raise error_from_response(_offset(e.data, start)) from None
            state["n"] += r["steps"]
            state["goals"].extend(r.get("goals") or ())
            state["last"] = r["result"]
        return state["last"], state["n"], tuple(state["goals"])

    def _encode_steps(self, steps: Any) -> Any:
        """The steps as a JSON array in bytes pieces, or the list of step
        dicts to send marshalled (_run_parts)."""
        if isinstance(steps, str) and "{" not in steps:
            steps = pathlib.Path(steps)
        if isinstance(steps, os.PathLike):
            with open(steps, "rb") as f:
                steps = f.read()
        if isinstance(steps, memoryview):
            steps = steps.tobytes()
        if isinstance(steps, (str, bytes, bytearray)):
            return _join_lines(steps)
        lst = steps if isinstance(steps, list) else list(steps)
        self._catch_up()
        nxt = self._next
        for i, st in enumerate(lst):
            if "step" not in st:  # numbered as step() numbers them: copy only then
                lst = [dict(x) for x in lst[:i]] + [dict(x) for x in lst[i:]]
                for x in lst:
                    if "step" not in x:
                        x["step"] = nxt
                    try:
                        nxt = int(x["step"]) + 1
                    except (TypeError, ValueError):
                        pass
                break
        if self._marshal and "steps_marshal" in self._server.features:
            return lst
        return self._json_steps(lst)

    @staticmethod
    def _json_steps(lst: List[Any]) -> List[Any]:
        try:
            return [_dumps(lst).encode()]
        except ValueError as e:
            raise ValueError("run: a step holds %s" % e) from None

    def close(self) -> None:
        """Close the session (its server-side state is freed)."""
        try:
            self._call("session.close", {})
        except EngineError as e:
            if e.code not in ("unknown_session", "closed", "server_exited"):
                raise
