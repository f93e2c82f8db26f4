"""The knowledge base of an installed ``bddl`` package.

BEHAVIOR-1K's Python package ``bddl`` keeps its knowledge base's data in
``bddl/generated_data/`` (``bddl/knowledge_base/`` is its Python code). When
nothing else names a knowledge base, the engine uses that of the ``bddl``
package this interpreter can import, found without importing it.
"""

import importlib.util
import os
from typing import Optional

__all__ = ["installed_kb"]

# The server reads it after --kb, $BDDL_KB, bddl.toml and the BEHAVIOR-1K
# tree around the inputs, before its embedded example knowledge base.
ENV_INSTALLED = "BDDL_KB_INSTALLED"


def installed_kb() -> Optional[str]:
    """The ``generated_data`` folder of the importable ``bddl`` package, or
    None when there is none (or it has no knowledge-base data)."""
    try:
        spec = importlib.util.find_spec("bddl")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        data = os.path.join(root, "generated_data")
        if os.path.isfile(os.path.join(data, "output_hierarchy.json")):
            return os.path.abspath(data)
    return None


def server_env(env: "Optional[dict]") -> "Optional[dict]":
    """The server's environment: env (or this process's) with the installed
    package's knowledge base added when nothing set it."""
    base = dict(os.environ if env is None else env)
    if base.get(ENV_INSTALLED):
        return env
    kb = installed_kb()
    if kb is None:
        return env
    base[ENV_INSTALLED] = kb
    return base
