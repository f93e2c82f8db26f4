"""Groups of sessions stepped in one round trip (``Engine.sessions``).

A vectorised environment (LIBERO's ``SubprocVectorEnv``, OmniGibson's
vector environments, a policy server scoring a batch) steps N episodes
every tick. A :class:`SessionGroup` sends the N steps in one request
(``group.step``): the server applies them, in parallel when N is large,
each exactly as ``Session.step`` would, and answers with one column per
field (success, goal, score, ... a value per environment), so that the
client builds no object per environment unless asked (``records=True``).
"""

import binascii
import json
import marshal
import threading
from itertools import repeat
from operator import contains
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from .engine import _FORK_HOOK, _dumps  # _dumps: the engine's encoder (numpy values as lists)
from .errors import EngineError, error_from_response
from .results import StepResult

__all__ = ["SessionGroup", "GroupResult"]

Step = Mapping[str, Any]


# How an answer of columns begins (as the server writes it); wait returns
# such a line as it is, and GroupResult decodes each column when read.
_COLUMNS = b'{"id":%d,"result":{"success":['

_scan = json.decoder.JSONDecoder().scan_once


def _rows(a: Any) -> Any:
    """Nested lists from a numpy array (or anything with ``.tolist()``)."""
    return a.tolist() if hasattr(a, "tolist") else a


class GroupResult:
    """The outcome of one ``SessionGroup.step``: a column per field, one
    value per session, in the group's order.

    ``success`` (bool), ``goal`` ("true", "false", "unknown"), ``score``,
    ``challenge_score`` (float) and ``step`` (the step number applied)
    are lists; ``errors`` holds ``None`` for each session whose step
    applied and the exception (``StepError``, ``EngineError``) for each
    that failed, whose other columns then read ``False``, ``"unknown"``,
    ``0.0``, ``0.0`` and ``-1``. With ``records=True``, ``records`` holds
    each session's :class:`StepResult` (``None`` where it failed), also
    reached as ``result[i]``; each is built from its record when first
    reached (a vectorised loop that reads the columns builds none).
    A column is decoded from the server's answer when first read (a loop
    that reads the goals decodes no scores). :meth:`numpy` gives the
    columns as arrays.
    """

    __slots__ = ("_cols", "_text", "_errors", "_recs", "_built")

    def __init__(self, r: Dict[str, Any], text: Optional[str] = None,
                 errors: Optional[List[Optional[EngineError]]] = None) -> None:
        # r: the columns decoded (all of them, without text); text: the
        # answer's line, the others decoded from it when first read.
        self._cols = r
        self._text = text
        self._errors = errors
        self._recs: Optional[List[Optional[Dict[str, Any]]]] = r.get("records")
        self._built: Optional[List[Optional[StepResult]]] = None

    def _col(self, name: str) -> Any:
        try:
            return self._cols[name]
        except KeyError:
            if self._text is None:
                raise
        # The columns come in a fixed order, success first, and none
        # before errors holds a string that may contain '"name":['.
        text = self._text
        i = text.find('"%s":[' % name)
        try:
            if i < 0:
                raise ValueError("no such column")
            v, _ = _scan(text, i + len(name) + 3)
        except (ValueError, StopIteration) as e:
            raise EngineError("bddl serve's answer to group.step has no readable %s column (%s): %r"
                              % (name, e, text[:200]), code="protocol") from None
        self._cols[name] = v
        return v

    @property
    def success(self) -> List[bool]:
        return self._col("success")  # type: ignore[no-any-return]

    @property
    def goal(self) -> List[str]:
        return self._col("goal")  # type: ignore[no-any-return]

    @property
    def score(self) -> List[float]:
        return self._col("score")  # type: ignore[no-any-return]

    @property
    def challenge_score(self) -> List[float]:
        return self._col("challenge_score")  # type: ignore[no-any-return]

    @property
    def step(self) -> List[int]:
        return self._col("step")  # type: ignore[no-any-return]

    @property
    def errors(self) -> List[Optional[EngineError]]:
        errs = self._errors
        if errs is None:
            raw = self._col("errors")
            errs = self._errors = [None if e is None else error_from_response(e) for e in raw] if any(raw) else raw
        return errs

    @property
    def records(self) -> Optional[List[Optional[StepResult]]]:
        """Each session's :class:`StepResult` (``None`` where its step
        failed), with ``records=True``; else ``None``."""
        if self._recs is None:
            return None
        for i in range(len(self._recs)):
            self._record(i)
        return self._built

    def _record(self, i: int) -> Optional[StepResult]:
        built = self._built
        if built is None:
            built = self._built = [None] * len(self._recs)  # type: ignore[arg-type]
        r = built[i]
        if r is None:
            rec = self._recs[i]  # type: ignore[index]
            if rec is not None:
                r = built[i] = StepResult.from_record(rec)
        return r

    def __len__(self) -> int:
        return len(self.success)

    def __getitem__(self, i: int) -> StepResult:
        """Session i's result (with ``records=True``); its error raised
        when its step failed."""
        err = self.errors[i]
        if err is not None:
            raise err
        if self._recs is None:
            raise ValueError("GroupResult[i] needs the records: step(..., records=True); the columns "
                             "(success, goal, score, challenge_score, step) are always there")
        return self._record(range(len(self._recs))[i])  # type: ignore[return-value]

    @property
    def ok(self) -> bool:
        """Whether every session's step applied."""
        return not any(self.errors)

    def raise_first(self) -> None:
        """Raise the first session's error, if any step failed."""
        for e in self.errors:
            if e is not None:
                raise e

    def numpy(self) -> Dict[str, Any]:
        """The columns as numpy arrays (numpy imported on first use):
        ``success`` bool, ``goal`` int8 (1 true, 0 false, -1 unknown),
        ``score``/``challenge_score`` float64, ``step`` int64, ``failed``
        bool."""
        import numpy as np
        code = {"true": 1, "false": 0}
        return {"success": np.array(self.success, dtype=bool),
                "goal": np.array([code.get(g, -1) for g in self.goal], dtype=np.int8),
                "score": np.array(self.score, dtype=np.float64),
                "challenge_score": np.array(self.challenge_score, dtype=np.float64),
                "step": np.array(self.step, dtype=np.int64),
                "failed": np.array([e is not None for e in self.errors], dtype=bool)}

    def __repr__(self) -> str:
        return "GroupResult(success=%r, goal=%r, score=%r, errors=%d)" % (
            self.success, self.goal, self.score, sum(e is not None for e in self.errors))


class SessionGroup:
    """N sessions stepped together (``Engine.sessions``); a context manager
    that closes them. ``sessions`` are the :class:`Session` objects (usable
    one by one too: ``init``, ``run``, ``step(explain=True)``)."""

    def __init__(self, engine: Any, sessions: Sequence[Any], activities: Sequence[str],
                 open_params: Sequence[Dict[str, Any]], names: Optional[Sequence[str]] = None) -> None:
        self.engine = engine
        self.sessions = list(sessions)
        self.activities = list(activities)
        self._open_params = list(open_params)
        self.names = list(names) if names is not None else None
        self._lock = threading.Lock()
        self._marshal = True  # steps sent marshalled until the server finds a value JSON cannot hold
        self._nulls: Optional[str] = None  # the errors column when no session failed (_columns)
        # The last answer whose step column the sessions have not read yet
        # (_columns): their next step numbers, read when first needed.
        self._pending: Optional[GroupResult] = None
        for sess in self.sessions:
            sess._group = self
        self._prefix()

    def _prefix(self) -> None:
        # The request's text before the steps, encoded once per set of sessions.
        self._head = '"method":"group.step","params":{"sessions":%s,' % json.dumps([s.id for s in self.sessions])
        self._names = json.dumps(self.names) if self.names is not None else None

    def __len__(self) -> int:
        return len(self.sessions)

    def __enter__(self) -> "SessionGroup":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def step(self, steps: Optional[Sequence[Optional[Step]]] = None, *, pos: Any = None, quat: Any = None,
             aabb: Any = None, names: Optional[Sequence[str]] = None, explain: bool = False,
             records: bool = False) -> GroupResult:
        """Apply one step to every session, in one round trip.

        ``steps`` is a list of N step dicts (each as ``Session.step``
        takes it; ``None`` or ``{}`` for a session whose step is the
        arrays alone). ``pos`` (N x K x 3), ``quat`` (N x K x 4) and
        ``aabb`` (N x K x 6) give the poses of K objects in each session,
        as numpy arrays or nested lists; the objects are ``names`` (here,
        or given once to ``Engine.sessions``). A missing step number is
        the session's previous one plus 1. A session whose step fails is
        reported in ``GroupResult.errors``; the others' steps apply.
        """
        n = len(self.sessions)
        if n == 0:  # a group has one session at least until it is closed
            raise ValueError("step: the group is closed")
        parts = [self._head]
        if explain:
            parts.append('"explain":true,')
        if records:
            parts.append('"records":true,')
        numbers = None
        if steps is not None:
            steps = steps if isinstance(steps, list) else list(steps)
            if len(steps) != n:
                raise ValueError("step: %d steps for %d sessions" % (len(steps), n))
            # How many steps have their number (the loop in C: a step a tick
            # in a vectorised loop is a few microseconds all told); a None
            # step cannot be asked.
            try:
                numbered = sum(map(contains, steps, repeat("step", n)))
            except TypeError:
                numbered = -1
            if numbered == 0:
                numbers = True
            elif numbered != n:  # mixed: number the ones without, as Session.step would
                missing = [st is None or "step" not in st for st in steps]
                if all(missing):
                    numbers = True
                else:
                    with self._lock:
                        self._sync()
                        steps = [dict(st or {}, step=s._next) if m else st
                                 for st, s, m in zip(steps, self.sessions, missing)]
        else:
            numbers = True
        arrays = [(k, v) for k, v in (("pos", pos), ("quat", quat), ("aabb", aabb)) if v is not None]
        if arrays:
            nm = json.dumps(list(names)) if names is not None else self._names
            if nm is None:
                raise ValueError("step: poses need the objects' names (names=, here or in Engine.sessions)")
            parts.append('"names":%s,' % nm)
        with self._lock:
            if not self.sessions:
                raise ValueError("step: the group is closed")
            # As Session.step: the engine's server is the sessions', alive,
            # in this process, checked without a system call.
            first = self.sessions[0]
            srv = first._server
            if self.engine._server is not srv or srv.dead is not None or not _FORK_HOOK:
                srv = first._srv()
            if numbers:
                self._sync()
                parts.append('"numbers":%s,' % json.dumps([s._next for s in self.sessions]))
            for k, v in arrays:
                parts.append('"%s":%s,' % (k, _dumps(_rows(v))))
            head = "".join(parts)
            resp = None
            if steps is not None and self._marshal and "steps_marshal" in srv.features:
                # As Session.run sends a list: marshal writes it a tenth
                # of the time json takes; the server reads it into the
                # JSON json.dumps would write. A value JSON cannot hold
                # as it is (a numpy value, bytes, a set) makes the server
                # refuse it whole (unsupported_value, nothing applied),
                # and the group keeps to JSON from then on.
                try:
                    b64 = binascii.b2a_base64(marshal.dumps(steps, 4), newline=False)
                except (ValueError, TypeError, RecursionError):
                    b64 = None
                if b64 is not None:
                    rid = srv.send_raw_bytes(b'%s"steps_marshal":"%s"}}' % (head.encode(), b64))
                    resp = srv.wait(rid, None if records else _COLUMNS % rid)
                    if resp.__class__ is not bytes and "error" in resp and resp["error"].get("code") == "unsupported_value":
                        resp = None
                if resp is None:
                    self._marshal = False
            if resp is None:
                body = head + ('"steps":%s}}' % _dumps(steps) if steps is not None else "")
                if steps is None:
                    body = body[:-1] + "}}"
                rid = srv.send_raw(body)
                resp = srv.wait(rid, None if records else _COLUMNS % rid)
            if resp.__class__ is bytes:
                return self._columns(resp)
            if "error" in resp:
                raise error_from_response(resp["error"])
            res = resp["result"]
            self._sync()
            for s, k in zip(self.sessions, res["step"]):
                if k >= 0:
                    s._next = k + 1
        return GroupResult(res)

    def _columns(self, line: bytes) -> GroupResult:
        """The result of a step from the answer's line (wait's raw): its
        columns decoded when read (lock held). When no session failed,
        every session's next step number is in the step column, which is
        read only when a number is needed (_sync): a loop that numbers its
        steps never decodes it."""
        text = line.decode("utf-8")
        n = len(self.sessions)
        r = GroupResult({}, text)
        if self._nulls is None or len(self._nulls) != 10 + 5 * n:
            self._nulls = '"errors":[%s]' % ",".join(["null"] * n)
        if self._nulls in text:  # no session failed: the errors column unread
            r._errors = [None] * n
            self._pending = r  # supersedes an earlier one: every session stepped
        else:
            self._sync()
            steps = self._steps_of(r)
            for s, k in zip(self.sessions, steps):
                if k >= 0:
                    s._next = k + 1
        return r

    def _steps_of(self, r: GroupResult) -> List[int]:
        steps = r.step
        if len(steps) != len(self.sessions):
            raise EngineError("bddl serve answered group.step with %d steps for %d sessions"
                              % (len(steps), len(self.sessions)), code="protocol")
        return steps

    def _sync(self) -> None:
        """Give the sessions their next step numbers from the pending
        answer (lock held)."""
        r = self._pending
        if r is not None:
            self._pending = None
            for s, k in zip(self.sessions, self._steps_of(r)):
                s._next = k + 1

    def _catch_up(self) -> None:
        """_sync for a session about to read or write its number."""
        with self._lock:
            self._sync()

    def reset(self, indices: Optional[Sequence[int]] = None,
              headers: Optional[Sequence[Optional[Mapping[str, Any]]]] = None) -> None:
        """Start new episodes: close the sessions at ``indices`` (default
        all) and open them again on the same definitions, with ``headers``
        (one per index; default the headers they were opened with)."""
        idx = list(range(len(self.sessions))) if indices is None else list(indices)
        if headers is not None and len(headers) != len(idx):
            raise ValueError("reset: %d headers for %d sessions" % (len(headers), len(idx)))
        with self._lock:
            self._sync()
            params = []
            for j, i in enumerate(idx):
                p = dict(self._open_params[i])
                if headers is not None and headers[j] is not None:
                    p["header"] = dict(headers[j])  # type: ignore[arg-type]
                params.append(p)
            fresh = _open_many(self.engine, params)
            old = [self.sessions[i] for i in idx]
            for j, i in enumerate(idx):
                self.sessions[i] = fresh[j]
                fresh[j]._group = self
                self._open_params[i] = params[j]
            self._prefix()
        _close_many(self.engine, old)

    def close(self) -> None:
        """Close every session of the group."""
        with self._lock:
            self._sync()
            old, self.sessions = self.sessions, []
            self._prefix()
        _close_many(self.engine, old)


def _open_many(engine: Any, params: Sequence[Dict[str, Any]]) -> List[Any]:
    """session.open for each params, pipelined (all sent, then all read);
    when one fails, those opened are closed and its error raised."""
    from .engine import Session
    srv = engine._get()
    ids = [srv.send("session.open", p) for p in params]
    resps = [srv.wait(i) for i in ids]
    out, err = [], None
    for k, resp in enumerate(resps):
        if "error" in resp:
            if err is None:
                err = (k, resp["error"])
            continue
        r = resp["result"]
        out.append(Session(engine, srv, r["session"], r.get("activity", ""), tuple(r.get("conjuncts") or ())))
    if err is not None:
        _close_many(engine, out)
        e = error_from_response(err[1])
        e.args = ("session %d of the group: %s" % (err[0], e.message),)
        raise e
    return out


def _close_many(engine: Any, sessions: Sequence[Any]) -> None:
    """session.close for each, pipelined; sessions of a server gone (a
    fork, a server that died) or closed already are skipped."""
    try:
        srv = engine._get()
    except EngineError:
        return
    ids = [srv.send("session.close", {"session": s.id}) for s in sessions if s._server is srv]
    for i in ids:
        srv.wait(i)


def open_group(engine: Any, activities: Sequence[Union[str, Any]], headers: Optional[Sequence[Optional[Mapping[str, Any]]]],
               transitions: bool, names: Optional[Sequence[str]], options: Dict[str, Any]) -> SessionGroup:
    """Engine.sessions: one session per activity, opened in one burst."""
    import os
    acts = [os.fspath(a) for a in activities]
    if not acts:
        raise ValueError("sessions: at least one activity")
    if headers is not None and len(headers) != len(acts):
        raise ValueError("sessions: %d headers for %d activities" % (len(headers), len(acts)))
    base = engine._eval_params(options)
    base["transitions"] = transitions
    params = []
    for i, a in enumerate(acts):
        p = dict(base, activity=a)
        h = headers[i] if headers is not None else None
        if h is not None:
            p["header"] = {k: v for k, v in h.items() if k != "steps"}  # open-ended, as session's
        params.append(p)
    return SessionGroup(engine, _open_many(engine, params), acts, params, names)
