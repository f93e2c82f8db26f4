"""openbddl.rex: the lazy import, the node against a stand-in BaseNode, and
against rex itself where rex-lib is installed (it is not on PyPI mirrors
this project reaches: that test says it skipped)."""

import importlib
import sys
import types
import unittest
from typing import Any

import openbddl
import openbddl.rex as orex

from .helpers import ACTIVITY

try:
    import rex.node  # noqa: F401
    HAVE_REX = True
except ImportError:
    HAVE_REX = False


class StepState:
    def __init__(self, seq: int, facts: Any = ()) -> None:
        self.seq = seq
        self.inputs = {"sim": facts}


def to_step(ss: StepState) -> dict:
    return {"facts": [list(f) for f in ss.inputs["sim"]]}


class _Fresh:
    """openbddl.rex with CheckerNode not made yet, and sys.modules' rex
    entries replaced for the duration."""

    def __init__(self, modules: dict) -> None:
        self.modules = modules

    def __enter__(self) -> Any:
        self.saved = {k: sys.modules.get(k) for k in ("rex", "rex.node")}
        sys.modules.update(self.modules)
        orex.__dict__.pop("CheckerNode", None)
        return orex

    def __exit__(self, *exc: Any) -> None:
        for k, v in self.saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
        orex.__dict__.pop("CheckerNode", None)


class StandInBaseNode:
    """rex's BaseNode as far as the checker node uses it."""

    def __init__(self, name: str, rate: float, **kwargs: Any) -> None:
        self.name, self.rate = name, rate


def stand_in_rex() -> dict:
    rex_mod = types.ModuleType("rex")
    node_mod = types.ModuleType("rex.node")
    node_mod.BaseNode = StandInBaseNode  # type: ignore[attr-defined]
    rex_mod.node = node_mod  # type: ignore[attr-defined]
    return {"rex": rex_mod, "rex.node": node_mod}


class RexLazyImportTest(unittest.TestCase):
    def test_import_without_rex(self) -> None:
        with _Fresh({"rex": None, "rex.node": None}) as m:  # None: import raises ImportError
            importlib.reload(m)
            self.assertTrue(callable(m.output_of))
            with self.assertRaises(ImportError) as cm:
                m.CheckerNode
            self.assertIn("openbddl.rex needs rex-lib and jax", str(cm.exception))
            with self.assertRaises(ImportError):
                from openbddl.rex import CheckerNode  # noqa: F401
            with self.assertRaises(AttributeError):
                m.NoSuchThing

    def test_outputs_are_numeric(self) -> None:
        out = orex.initial_output()
        self.assertEqual(sorted(out), ["challenge_score", "goal", "score", "step", "success"])
        for v in out.values():
            self.assertIsInstance(v.item() if hasattr(v, "item") else v, (bool, int, float))


class RexStandInTest(unittest.TestCase):
    """The node's own logic against a stand-in BaseNode: what rex calls,
    in the order its runtime calls it (not rex's scheduling itself)."""

    def test_node_lifecycle(self) -> None:
        with _Fresh(stand_in_rex()) as m, openbddl.Engine() as eng:
            node = m.CheckerNode(name="checker", rate=10.0, activity=ACTIVITY, to_step=to_step, engine=eng)
            self.assertIsInstance(node, StandInBaseNode)
            self.assertEqual(node.name, "checker")
            first = node.init_output()
            self.assertEqual(int(first["step"]), -1)
            self.assertTrue(node.startup(None))
            ss, out = node.step(StepState(0))
            self.assertEqual(int(out["step"]), 0)
            # The asynchronous runtime's second call for the same tick.
            _, again = node.step(StepState(0, facts=[("nonsense",)]))
            self.assertEqual(int(again["step"]), 0)
            _, out = node.step(StepState(1, facts=[("ontop", "mug.n.04_1", "coffee_table.n.01_1")]))
            self.assertEqual(int(out["step"]), 1)
            self.assertIn(int(out["goal"]), (0, -1, 1))
            session = node.checker.session.id
            # A new episode: startup again opens a new session.
            self.assertTrue(node.startup(None))
            self.assertNotEqual(node.checker.session.id, session)
            self.assertEqual(int(node.step(StepState(0))[1]["step"]), 0)
            self.assertTrue(node.stop())
            self.assertIsNone(node.checker)
            with self.assertRaises(RuntimeError):
                node.step(StepState(1))

    def test_own_engine(self) -> None:
        with _Fresh(stand_in_rex()) as m:
            node = m.CheckerNode(name="checker", rate=10.0, activity=ACTIVITY, to_step=to_step)
            node.startup(None)
            eng = node._own_engine
            self.assertEqual(int(node.step(StepState(0))[1]["step"]), 0)
            node.stop()
            with self.assertRaises(openbddl.EngineError):
                eng.call("kb.show", {"synsets": ["mug.n.04"]})


@unittest.skipUnless(HAVE_REX, "rex-lib is not installed (no PyPI here): the node was not run inside rex itself")
class RexRealTest(unittest.TestCase):
    def test_node_in_rex(self) -> None:
        from openbddl.rex import CheckerNode
        from rex.node import BaseNode
        with openbddl.Engine() as eng:
            node = CheckerNode(name="checker", rate=10.0, activity=ACTIVITY, to_step=to_step, engine=eng)
            self.assertIsInstance(node, BaseNode)
            node.init_output()
            self.assertTrue(node.startup(None))
            _, out = node.step(StepState(0))
            self.assertEqual(int(out["step"]), 0)
            self.assertTrue(node.stop())


if __name__ == "__main__":
    unittest.main()
