"""openbddl: the bddl engine inside a Python evaluation loop.

The engine is the ``bddl`` binary run as a child process (``bddl serve``)
spoken to in JSON Lines; this package only marshals. It needs the standard
library only (numpy arrays are accepted wherever numbers are)::

    import openbddl

    with openbddl.Engine() as eng:
        s = eng.session("tidying_the_living_room")
        for obs in rollout():                       # your simulator loop
            r = s.step(objects=obs.objects, facts=obs.facts)
            if r.success:
                break
        print(r.goal, r.score, r.reason)            # r.goal: "true", "false" or "unknown"

A step's result is lean by default; ``s.step(..., explain=True)`` returns
the whole record, whose ``unsatisfied`` lists the goal's literals that do
not hold (``[l.ground for l in r.unsatisfied]``).

See docs/python.md for every method, the protocol and its schema.
"""

from ._version import __version__
from .binary import binary_path, find_binary
from .engine import PROTOCOL, Engine, Session
from .installed import installed_kb
from .errors import DefinitionError, EngineError, StepError
from .group import GroupResult, SessionGroup
from .live import LiveChecker
from .results import (Truth, CheckResult, Explanation, Finding, InitResult, Literal, RuleFiring, RunResult, SampleRecord,
                      StepResult, ValidationReport)

__all__ = [
    "Engine", "Session", "PROTOCOL", "binary_path", "find_binary", "__version__", "installed_kb",
    "SessionGroup", "GroupResult", "LiveChecker",
    "EngineError", "DefinitionError", "StepError",
    "Truth", "StepResult", "CheckResult", "InitResult", "RunResult", "Literal", "RuleFiring",
    "Finding", "ValidationReport", "Explanation", "SampleRecord",
]
