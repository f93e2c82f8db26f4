"""Shared test helpers: where the repository and its examples are."""

import gzip
import json
import os
from typing import Any, Dict, List, Tuple

from openbddl.binary import source_root

# The clone the tests read examples from: $BDDL_SOURCE, the tree the
# package was installed from, or the one these tests sit in.
REPO = source_root() or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(REPO, "activities", "examples")
ACTIVITY = "tidying_the_living_room"


def example_episodes() -> List[str]:
    out = []
    for act in sorted(os.listdir(EXAMPLES)):
        d = os.path.join(EXAMPLES, act, "episodes")
        if os.path.isdir(d):
            out += [os.path.join(d, f) for f in sorted(os.listdir(d)) if ".jsonl" in f]
    return out


def read_episode(path: str) -> Tuple[Dict[str, Any], List[Dict[str, Any]]]:
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        lines = [json.loads(l) for l in f if l.strip()]
    return lines[0], lines[1:]
