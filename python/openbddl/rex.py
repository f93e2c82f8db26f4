"""A checker node for rex graphs (rex-lib): ``openbddl.rex.CheckerNode``.

A thin layer over :class:`openbddl.LiveChecker`, written to rex's node
API: ``init_output`` (numeric leaves only, as rex passes outputs through
jax), ``startup`` (opens the session), ``step(step_state) ->
(step_state, output)`` (one tick, numbered by ``step_state.seq``, so the
asynchronous runtime's second call for the same tick costs nothing) and
``stop`` (closes it). rex is imported when ``CheckerNode`` is first
reached, so ``import openbddl`` never needs it; without rex-lib that
raises ImportError saying so. docs/python.md says what was tested
against rex itself and what was not.
"""

from typing import Any, Callable, Dict, Mapping, Optional

from .live import LiveChecker
from .results import StepResult

__all__ = ["CheckerNode", "output_of", "initial_output"]

REX_MISSING = ("openbddl.rex needs rex-lib and jax (pip install rex-lib): %s. The rest of openbddl does not; "
               "LiveChecker is the same checker without rex.")


def _leaf(v: Any, dtype: str) -> Any:
    """A numeric leaf: a 0-d numpy array when numpy is there (rex's own
    dependency), else the Python number."""
    try:
        import numpy as np
    except ImportError:
        return v
    return np.asarray(v, dtype=dtype)


_GOAL = {"true": 1, "false": 0}


def output_of(r: Optional[StepResult]) -> Dict[str, Any]:
    """A node output from a result: ``success`` (bool), ``goal`` (int8: 1
    true, 0 false, -1 unknown), ``score`` and ``challenge_score``
    (float32), ``step`` (int32, -1 before the first tick)."""
    if r is None:
        return {"success": _leaf(False, "bool"), "goal": _leaf(-1, "int8"), "score": _leaf(0.0, "float32"),
                "challenge_score": _leaf(0.0, "float32"), "step": _leaf(-1, "int32")}
    return {"success": _leaf(r.success, "bool"), "goal": _leaf(_GOAL.get(r.goal, -1), "int8"),
            "score": _leaf(r.score, "float32"), "challenge_score": _leaf(r.challenge_score, "float32"),
            "step": _leaf(r.step, "int32")}


def initial_output() -> Dict[str, Any]:
    """The output before the first tick (``init_output``)."""
    return output_of(None)


def _seq(step_state: Any) -> Optional[int]:
    seq = getattr(step_state, "seq", None)
    try:
        return None if seq is None else int(seq)
    except (TypeError, ValueError):
        return None


def _make(base: type) -> type:
    class CheckerNode(base):  # type: ignore[valid-type,misc]
        """A rex node checking an activity every tick.

        ``CheckerNode(*args, activity=, to_step=, engine=None, header=None,
        transitions=True, check_options=None, **kwargs)``: ``args`` and
        ``kwargs`` are rex's ``BaseNode``'s (name, rate, ...);
        ``to_step(step_state)`` makes the episode step (a dict, as
        ``Session.step`` takes it) from the node's inputs; ``engine`` an
        :class:`openbddl.Engine` (default: one of the node's own, started
        in ``startup``, closed in ``stop``).
        """

        def __init__(self, *args: Any, activity: str, to_step: Callable[[Any], Mapping[str, Any]],
                     engine: Any = None, header: Optional[Mapping[str, Any]] = None, transitions: bool = True,
                     check_options: Optional[Dict[str, Any]] = None, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.activity = activity
            self.to_step = to_step
            self.header = dict(header) if header is not None else None
            self.transitions = transitions
            self.check_options = dict(check_options or {})
            self._engine = engine
            self._own_engine = None
            self.checker: Optional[LiveChecker] = None

        def init_output(self, rng: Any = None, graph_state: Any = None) -> Dict[str, Any]:
            return initial_output()

        def startup(self, graph_state: Any, timeout: Optional[float] = None) -> bool:
            if self.checker is not None:  # a new episode: the previous one's session goes
                self.checker.close()
            eng = self._engine
            if eng is None:
                from .engine import Engine
                eng = self._own_engine = self._own_engine or Engine()
            self.checker = LiveChecker(eng, self.activity, header=self.header, transitions=self.transitions,
                                       **self.check_options)
            return True

        def step(self, step_state: Any) -> Any:
            if self.checker is None:
                raise RuntimeError("CheckerNode.step before startup: the session opens in startup")
            r = self.checker.tick(self.to_step(step_state), _seq(step_state))
            return step_state, output_of(r)

        def stop(self, timeout: Optional[float] = None) -> bool:
            if self.checker is not None:
                self.checker.close()
                self.checker = None
            if self._own_engine is not None:
                self._own_engine.close()
                self._own_engine = None
            return True

    return CheckerNode


def _base_node() -> type:
    try:
        from rex.node import BaseNode
    except ImportError as e:
        raise ImportError(REX_MISSING % e) from e
    return BaseNode


def __getattr__(name: str) -> Any:
    # PEP 562: CheckerNode is made on first use, subclassing rex's BaseNode.
    if name == "CheckerNode":
        cls = _make(_base_node())
        globals()["CheckerNode"] = cls
        return cls
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
