"""Typed results of the engine's methods.

Each keeps the record it was made from (``record``), as the command's
``--format json`` prints it: the schemas are ``bddl schema result``,
``bddl schema finding``, ``bddl schema explain``, ``bddl schema sample``.
"""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

try:
    from typing import Literal as _Lit
except ImportError:  # Python < 3.8
    _Lit = None  # type: ignore[assignment]

__all__ = [
    "Truth", "Literal", "RuleFiring", "StepResult", "CheckResult", "InitResult", "RunResult",
    "Finding", "ValidationReport", "Explanation", "SampleRecord",
]


# Truth is a three-valued truth as the engine reports it: a goal, a
# literal or :init is "true", "false" or "unknown" (missing data).
Truth = _Lit["true", "false", "unknown"] if _Lit is not None else str  # type: ignore[misc,valid-type]


@dataclass(frozen=True)
class Literal:
    """A ground literal of the goal or of ``:init`` and why it has its value."""

    literal: str
    ground: str
    objects: Tuple[str, ...]
    value: Truth
    source: str
    detail: str = ""
    line: int = 0

    @classmethod
    def from_record(cls, r: Dict[str, Any]) -> "Literal":
        return cls(literal=r.get("literal", ""), ground=r.get("ground", ""), objects=tuple(r.get("objects") or ()),
                   value=r.get("value", ""), source=r.get("source", ""), detail=r.get("detail", ""),
                   line=int(r.get("line", 0) or 0))


@dataclass(frozen=True)
class RuleFiring:
    """A transition rule that fired at a step (sessions with ``transitions``)."""

    step: int
    rule: str
    family: str
    container: str = ""
    consumed: Tuple[str, ...] = ()
    produced: Tuple[str, ...] = ()

    @classmethod
    def from_record(cls, r: Dict[str, Any]) -> "RuleFiring":
        return cls(step=int(r.get("step", 0)), rule=r.get("rule", ""), family=r.get("family", ""),
                   container=r.get("container", ""), consumed=tuple(r.get("consumed") or ()),
                   produced=tuple(r.get("produced") or ()))


def _literals(rs: Optional[List[Dict[str, Any]]]) -> Tuple[Literal, ...]:
    return tuple(Literal.from_record(r) for r in rs or ())


@dataclass(frozen=True)
class StepResult:
    """The outcome of an episode up to its last step: the record
    ``bddl check --format json`` prints for the episode ended there.

    ``goal`` is the goal's truth at the last step ("true", "false",
    "unknown"); ``success`` whether it held (for ``hold`` consecutive
    steps) on a recording read without error; ``score`` and
    ``challenge_score`` the library and challenge scores (1 on success);
    ``unsatisfied``/``undetermined`` the goal's literals false/unknown at
    the last step (empty when the step was sent with ``explain=False``);
    ``firings`` every transition rule fired so far, ``fired`` those of the
    last step.
    """

    success: bool
    score: float
    challenge_score: float
    goal: Truth
    step: int
    reason: str
    first_success_step: Optional[int]
    init_ok: bool
    unsatisfied: Tuple[Literal, ...]
    undetermined: Tuple[Literal, ...]
    init_failures: Tuple[Literal, ...]
    firings: Tuple[RuleFiring, ...]
    warnings: Tuple[str, ...]
    activity: str
    episode: str
    error: Optional[str]
    record: Dict[str, Any] = field(repr=False, compare=False)

    @property
    def holds(self) -> bool:
        """Whether the goal holds at the last step."""
        return self.goal == "true"

    @property
    def fired(self) -> Tuple[RuleFiring, ...]:
        """The transition rules fired at the last step."""
        return tuple(f for f in self.firings if f.step == self.step)

    @classmethod
    def from_record(cls, r: Dict[str, Any]) -> "StepResult":
        # Filled in place of the generated __init__ (which sets each of
        # the frozen fields through object.__setattr__): a third of the
        # client's time per step on the lean record.
        g = r.get
        self = object.__new__(cls)
        unsat, undet, initf, fir, warn = g("unsatisfied"), g("undetermined"), g("init_failures"), g("firings"), g("warnings")
        self.__dict__.update(
            success=bool(g("success")), score=float(g("score", 0)),
            challenge_score=float(g("challenge_score", 0)), goal=g("goal_at_end", "unknown"),
            step=int(g("episode_step", 0)), reason=g("reason", ""),
            first_success_step=g("first_success_step"), init_ok=bool(g("init_ok")),
            unsatisfied=_literals(unsat) if unsat else (), undetermined=_literals(undet) if undet else (),
            init_failures=_literals(initf) if initf else (),
            firings=tuple(RuleFiring.from_record(f) for f in fir) if fir else (),
            warnings=tuple(warn) if warn else (), activity=g("activity", ""),
            episode=g("episode", ""), error=g("error"), record=r,
        )
        return self


CheckResult = StepResult
"""The result of ``Engine.check``: one episode's record."""


@dataclass(frozen=True)
class InitResult:
    """Whether ``:init`` holds in a session's state, and which literals do not."""

    ok: bool
    truth: Truth
    failures: Tuple[Literal, ...]


@dataclass(frozen=True)
class RunResult:
    """``Session.run``: the result after the last step, and with
    ``goals=True`` the goal's truth after each step."""

    result: StepResult
    steps: int
    goals: Tuple[Truth, ...] = ()


@dataclass(frozen=True)
class Finding:
    """One problem of a definition, as ``bddl validate --format json``."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int
    severity: str
    code: str
    rule: str
    message: str
    fix: str = ""

    @classmethod
    def from_record(cls, r: Dict[str, Any]) -> "Finding":
        return cls(file=r.get("file", ""), line=int(r.get("line", 0)), col=int(r.get("col", 0)),
                   end_line=int(r.get("end_line", 0)), end_col=int(r.get("end_col", 0)),
                   severity=r.get("severity", ""), code=r.get("code", ""), rule=r.get("rule", ""),
                   message=r.get("message", ""), fix=r.get("fix", ""))


@dataclass(frozen=True)
class ValidationReport:
    """Every finding of one definition; ``ok`` when none is an error."""

    file: str
    problem: bool
    findings: Tuple[Finding, ...]
    errors: int
    warnings: int
    notes: int

    @property
    def ok(self) -> bool:
        return self.errors == 0


@dataclass(frozen=True)
class Explanation:
    """A problem's ``:init`` and ``:goal`` in words (``bddl explain``)."""

    problem: str
    domain: str
    init: Tuple[str, ...]
    goal: Tuple[str, ...]


@dataclass(frozen=True)
class SampleRecord:
    """One sampled configuration (``bddl sample --format json``); ``episode``
    holds the lines of the episode file (header, one step) when no output
    directory was given, ``file`` the file written otherwise."""

    activity: str
    scene: str
    seed: int
    index: int
    status: str
    ms: float
    file: str = ""
    reason: Optional[Dict[str, Any]] = None
    episode: Tuple[Dict[str, Any], ...] = ()

    @property
    def ok(self) -> bool:
        return self.status == "ok"
