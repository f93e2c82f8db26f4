"""Validate BDDL definitions a tool generates, before using them.

Each generated text is validated (every finding with line, column, code
and fix); one that validates is explained in words and sampled once to
show that a scene can host it.

    PYTHONPATH=python python3 python/examples/validate_generated.py
"""

import os

import openbddl

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATE = os.path.join(HERE, "..", "..", "activities", "examples", "tidying_the_living_room", "problem0.bddl")


def generate():
    """A stand-in generator: the example definition, and two mutations."""
    with open(TEMPLATE, encoding="utf-8") as f:
        base = f.read()
    yield "good.bddl", base
    yield "misspelt-synset.bddl", base.replace("teddy.n.01", "teddi.n.01")
    yield "unbalanced.bddl", base.rstrip().rstrip(")")


def main() -> None:
    with openbddl.Engine() as eng:
        for name, text in generate():
            report = eng.validate(text, name=name)
            print("%s: %d errors, %d warnings" % (name, report.errors, report.warnings))
            for f in report.findings[:3]:
                print("  %s:%d:%d %s %s: %s%s" % (f.file, f.line, f.col, f.severity, f.code, f.message,
                                                 " (fix: %s)" % f.fix if f.fix else ""))
            if not report.ok:
                continue
            print("  goal:", "; ".join(eng.explain(text, name=name).goal[:2]))
            sample = eng.sample(text, seed=1)[0]
            print("  sampled in scene %s: %s" % (sample.scene, sample.status))
        try:
            eng.session(definition=text, name=name)
        except openbddl.DefinitionError as e:
            print("a session refuses %s: %s:%d:%d %s" % (name, e.file, e.line, e.column, e.code))


if __name__ == "__main__":
    main()
