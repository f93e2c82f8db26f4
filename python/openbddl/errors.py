"""Exceptions of the openbddl client."""

import re
from typing import Any, Dict, List, Optional

__all__ = ["EngineError", "DefinitionError", "StepError"]


class EngineError(Exception):
    """An error of the engine: a request it refused, or the engine itself
    (no binary, a server that died).

    ``code`` is the protocol's error code (``invalid_params``,
    ``unknown_session``, ``not_found``, ``line_too_long``, ``internal``,
    ...; ``no_binary`` and ``server_exited`` for the client's own), and
    ``data`` the whole error object of the response.
    """

    def __init__(self, message: str, code: str = "engine", data: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.data: Dict[str, Any] = dict(data or {})


class DefinitionError(EngineError):
    """An activity definition that does not parse or check.

    ``file``, ``line`` and ``column`` locate its first error, ``code`` is
    that error's code (``unknown-synset``, ``syntax``, ...) and
    ``findings`` lists every diagnostic as a dict (the records of
    ``bddl validate --format json``).
    """

    def __init__(self, message: str, data: Dict[str, Any]) -> None:
        findings: List[Dict[str, Any]] = list(data.get("findings") or [])
        first = next((f for f in findings if f.get("severity") == "error"), findings[0] if findings else {})
        super().__init__(message, code=first.get("code", "definition"), data=data)
        self.file: str = data.get("file", first.get("file", ""))
        self.line: int = int(data.get("line", first.get("line", 0)) or 0)
        self.column: int = int(data.get("column", first.get("col", 0)) or 0)
        self.findings = findings


class StepError(EngineError):
    """A step the episode reader refuses (as ``bddl check`` would stop the
    episode there): ``line`` is its line in the session's episode, ``step``
    its number when it has one, ``field`` the offending field
    (``objects.apple.n.01_1.aabb``), ``index`` its index in ``Session.run``.
    """

    def __init__(self, message: str, data: Dict[str, Any]) -> None:
        super().__init__(message, code="bad_step", data=data)
        self.line: int = int(data.get("line", 0) or 0)
        self.step: Optional[int] = data.get("step")
        self.field: str = data.get("field", "")
        self.index: Optional[int] = data.get("index")


# A flag of the command line in a server message ("--negation \"x\"",
# "--activities DIR", "--transitions:"), with its value when it has one.
_FLAG = re.compile(r'(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?:( |=)("[^"]*"|[A-Z][A-Z_|]*\b|-?[0-9][0-9.]*))?')


def python_terms(message: str) -> str:
    """A server message in this client's terms: bddl check's flags
    (``--per-step``, ``--activities DIR``) become the keywords that set
    them (``per_step=``, ``activities=DIR``)."""
    def keyword(m: "re.Match[str]") -> str:
        name = m.group(1).replace("-", "_")
        return name + "=" + m.group(3) if m.group(3) else name + "="
    out = _FLAG.sub(keyword, message)
    return out.replace("=:", ":").replace("= ", " ")


def error_from_response(err: Dict[str, Any]) -> EngineError:
    """Map a response's error object to an exception. The message is in
    Python's terms (python_terms); ``data["message"]`` keeps the server's."""
    code = err.get("code", "engine")
    message = python_terms(err.get("message", "error"))
    if code == "definition":
        return DefinitionError(message, err)
    if code == "bad_step":
        return StepError(message, err)
    return EngineError(message, code=code, data=err)
