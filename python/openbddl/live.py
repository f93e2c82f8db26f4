"""A checker for loops that own time (``LiveChecker``).

A gym-style loop, a vector environment's worker or a rex node calls
``tick`` once per step of its own clock, sometimes twice for the same
step (rex-lib's asynchronous runtime does), and starts episodes with
``reset``. The checker keeps the bookkeeping a bare ``Session`` leaves
to its caller: the step number, the answer to a repeated tick, the
session of the current episode, the lock, and a session of its own in a
forked worker.
"""

import os
import threading
import weakref
from typing import Any, Dict, Iterable, Mapping, Optional, Sequence

from .errors import EngineError
from .results import StepResult

__all__ = ["LiveChecker"]

Step = Mapping[str, Any]

_live: "weakref.WeakSet[LiveChecker]" = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for c in list(_live):
        c._lock = threading.Lock()  # a lock another thread held at the fork stays held


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


class LiveChecker:
    """An activity checked live, one tick per step of the caller's loop.

    ``LiveChecker(eng, activity, header=None, transitions=True, **options)``
    opens a session (``Engine.session``'s arguments) at once, so that a
    bad definition fails here. ``tick(step, number)`` applies a step and
    returns its :class:`StepResult`; a tick whose number equals the last
    one's returns the last result again without sending anything (a
    runtime that calls a node twice per tick, a loop that re-sends).
    Numbers are given (``number``, or the step's ``"step"``) or counted
    (the last plus one, from 0). ``reset(header=None)`` starts a new
    episode of the same definition. Safe to share between threads; in a
    forked worker, the first tick opens the checker's own session on the
    worker's server (the episode starts afresh there; the parent's
    session stays the parent's).
    """

    def __init__(self, engine: Any, activity: Optional[str] = None, header: Optional[Mapping[str, Any]] = None,
                 transitions: bool = True, **options: Any) -> None:
        self.engine = engine
        self.activity = activity
        self.header = dict(header) if header is not None else None
        self._transitions = transitions
        self._options = options
        self._lock = threading.Lock()
        self._session: Any = None
        self._pid = os.getpid()
        self._number: Optional[int] = None
        self._last: Optional[StepResult] = None
        self._closed = False
        self._open(self.header)
        _live.add(self)

    def _open(self, header: Optional[Mapping[str, Any]]) -> None:
        self._session = self.engine.session(self.activity, header=header, transitions=self._transitions,
                                            **self._options)
        self._pid = os.getpid()
        self._number, self._last = None, None

    def _current(self) -> Any:
        """The session of this process (lock held): a forked worker opens
        its own."""
        if self._closed:
            raise EngineError("the live checker is closed", code="closed")
        if self._pid != os.getpid():
            self._open(self.header)
        return self._session

    @property
    def last(self) -> Optional[StepResult]:
        """The last tick's result (None before the first of an episode)."""
        return self._last

    @property
    def number(self) -> Optional[int]:
        """The last tick's step number (None before the first of an episode)."""
        return self._number

    @property
    def session(self) -> Any:
        """The session of the current episode."""
        return self._session

    def tick(self, step: Optional[Step] = None, number: Optional[int] = None, *,
             objects: Optional[Mapping[str, Any]] = None, facts: Optional[Iterable[Sequence[str]]] = None,
             false: Optional[Iterable[Sequence[str]]] = None, unset: Optional[Iterable[Sequence[str]]] = None,
             t: Optional[float] = None, explain: bool = False) -> StepResult:
        """Apply one step (a dict as ``Session.step`` takes it, or its
        fields as keywords) as step ``number`` and return the result. The
        number is ``number``, else the step's ``"step"``, else the last
        plus one. The same number as the last tick's returns the last
        result (nothing is sent, whatever the step holds); a smaller one
        is refused by the session, as ``bddl check`` refuses it
        (StepError)."""
        with self._lock:
            sess = self._current()
            if number is None:
                given = step.get("step") if step is not None else None
                number = int(given) if given is not None else (0 if self._number is None else self._number + 1)
            else:
                number = int(number)
            if number == self._number and self._last is not None:
                return self._last
            line: Dict[str, Any] = dict(step) if step is not None else {}
            for k, v in (("objects", objects), ("facts", facts), ("false", false), ("unset", unset), ("t", t)):
                if v is not None:
                    line[k] = v if k in ("objects", "t") else list(v)
            line["step"] = number
            r = sess.step(line, explain=explain)
            self._number, self._last = number, r
            return r

    def reset(self, header: Optional[Mapping[str, Any]] = None) -> None:
        """Start a new episode on the same definition: the current
        session is closed and a new one opened, with ``header`` (default
        the checker's header; a header given here becomes the default)."""
        with self._lock:
            if self._closed:
                raise EngineError("the live checker is closed", code="closed")
            if header is not None:
                self.header = dict(header)
            old = self._session if self._pid == os.getpid() else None
            self._open(self.header)
        if old is not None:
            old.close()

    def close(self) -> None:
        """Close the current session; later ticks raise EngineError."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            old = self._session if self._pid == os.getpid() else None
            self._session = None
        if old is not None:
            try:
                old.close()
            except EngineError:
                pass

    def __enter__(self) -> "LiveChecker":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
