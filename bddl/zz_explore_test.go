package bddl

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZExplore(t *testing.T) {
	in := os.Getenv("ZZ")
	if in == "" {
		t.Skip()
	}
	b, _ := os.ReadFile(in)
	f, d := ParseFile("in.bddl", b)
	for _, x := range d {
		fmt.Printf("%s %d:%d-%d:%d %s: %s\n", x.Severity, x.Subject.Start.Line, x.Subject.Start.Col, x.Subject.End.Line, x.Subject.End.Col, x.Code, x.Summary)
	}
	if f.Problem != nil {
		fmt.Print(f.Problem.DebugString())
		if os.Getenv("FMT") != "" {
			fmt.Print(string(Format(f)))
		}
	}
	_ = strings.Repeat
}

func TestZZRange(t *testing.T) {
	src := "; c\n(define (problem x) (:domain d) (:objects) (:init) (:goal (and)))\n; after\n\n"
	f, d := ParseFile("x", []byte(src))
	fmt.Println(d, f.Problem.Range, f.Problem.Range.End.Offset, len(src))
	for _, s := range f.Problem.Sections { fmt.Println(s.Keyword.Name, s.Range.Start, s.Range.End) }
	fmt.Printf("%q\n", Format(f))
}

func TestZZJSON(t *testing.T) {
	src := "(define (problem x) (:domain d) (:objects a.n.01_1 - a.n.01) (:init (ontop a.n.01_1 b.n.01_1)) (:goal (and (forall (?a.n.01 - a.n.01) (and (cooked ?a.n.01) (ontop ?a.n.01 ?b.n.01_1))) (forn (2) (?c.n.01_1 - c.n.01) (inroom ?c.n.01_1 kitchen)) (not (hot ?x)) (fornpairs (3) (?a - a.n.01) (?b - b.n.01) (imply (touching ?a ?b) (or (nextto ?a ?b) (under cabinet.n.01_* ?b)))) (forpairs (?a - a.n.01) (?b - b.n.01) (exists (?z - z.n.01) (covered ?a ?z))))))"
	f, d := ParseFile("x", []byte(src))
	fmt.Println(d)
	b, _ := json.MarshalIndent(f.Problem, "", " ")
	_ = b
	fmt.Println(ExplainProblem(f.Problem))
	fmt.Println(f.Problem.DebugString())
}
