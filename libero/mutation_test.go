package libero

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/openbddl/bddl/bddl"
)

// mutation breaks a definition in one way and says on which line an error
// must then be reported; ok is false when the definition offers no place
// for it.
type mutation struct {
	name  string
	apply func(p *bddl.Problem, t *Task, lines []string) (out []string, line int, ok bool)
}

func replaceAt(lines []string, r bddl.Range, with string) []string {
	out := append([]string(nil), lines...)
	l := out[r.Start.Line-1]
	out[r.Start.Line-1] = l[:r.Start.Col-1] + with + l[r.End.Col-1:]
	return out
}

var mutations = []mutation{
	{"region definition removed", func(p *bddl.Problem, t *Task, lines []string) ([]string, int, bool) {
		for _, pl := range t.Placements() {
			if pl.Ref.Kind != RefRegion {
				continue
			}
			r := t.Regions[pl.Ref.Index].Region
			out := append([]string(nil), lines[:r.Range.Start.Line-1]...)
			out = append(out, lines[r.Range.Start.Line-1][:r.Range.Start.Col-1])
			out = append(out, lines[r.Range.End.Line-1][r.Range.End.Col-1:])
			out = append(out, lines[r.Range.End.Line:]...)
			// The lines after the region moved up by what was removed.
			shift := int(r.Range.End.Line-r.Range.Start.Line) - 1
			return out, int(pl.Atom.Args[1].Range.Start.Line) - shift, true
		}
		return nil, 0, false
	}},
	{"unknown predicate in :init", func(p *bddl.Problem, t *Task, lines []string) ([]string, int, bool) {
		init := t.InitAtoms()
		if len(init) == 0 {
			return nil, 0, false
		}
		a := init[0]
		return replaceAt(lines, a.Pred.Range, "Ontopp"), int(a.Pred.Range.Start.Line), true
	}},
	{"undeclared region", func(p *bddl.Problem, t *Task, lines []string) ([]string, int, bool) {
		for _, pl := range t.Placements() {
			if pl.Ref.Kind == RefRegion {
				arg := pl.Atom.Args[1]
				return replaceAt(lines, arg.Range, arg.Name+"_nowhere"), int(arg.Range.Start.Line), true
			}
		}
		return nil, 0, false
	}},
	{"target not a fixture", func(p *bddl.Problem, t *Task, lines []string) ([]string, int, bool) {
		for _, pl := range t.Placements() {
			if pl.Ref.Kind == RefRegion {
				r := t.Regions[pl.Ref.Index]
				return replaceAt(lines, r.Region.Target.Range, "not_a_fixture_1"), int(r.Region.Target.Range.Start.Line), true
			}
		}
		return nil, 0, false
	}},
	{"missing placement", func(p *bddl.Problem, t *Task, lines []string) ([]string, int, bool) {
		for _, pl := range t.Placements() {
			e := t.Entities[pl.Entity]
			if e.Fixture {
				continue
			}
			n := 0
			for _, q := range t.Placements() {
				if q.Entity == pl.Entity {
					n++
				}
			}
			if n != 1 {
				continue
			}
			return replaceAt(lines, pl.Atom.Range, ""), int(e.Decl.Range.Start.Line), true
		}
		return nil, 0, false
	}},
	{"inverted ranges", func(p *bddl.Problem, t *Task, lines []string) ([]string, int, bool) {
		for _, r := range p.Libero.Regions {
			for _, q := range r.Ranges {
				if q.V[0].Value < q.V[2].Value {
					s := fmt.Sprintf("(%s %s %s %s)", q.V[2].Text, q.V[1].Text, q.V[0].Text, q.V[3].Text)
					return replaceAt(lines, q.Range, s), int(q.Range.Start.Line), true
				}
			}
		}
		return nil, 0, false
	}},
	{"unknown predicate", func(p *bddl.Problem, t *Task, lines []string) ([]string, int, bool) {
		goal := t.GoalAtoms()
		if len(goal) == 0 {
			return nil, 0, false
		}
		a := goal[0]
		return replaceAt(lines, a.Pred.Range, a.Pred.Name+"ish"), int(a.Pred.Range.Start.Line), true
	}},
}

// TestCorpusMutations breaks every shared definition in each way the
// held-out checks do and requires an error at the broken line.
func TestCorpusMutations(t *testing.T) {
	for _, f := range corpusFiles(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p := parseStrict(t, f)
		task := Resolve(p)
		lines := strings.Split(string(src), "\n")
		for _, m := range mutations {
			out, line, ok := m.apply(p, task, lines)
			if !ok {
				continue
			}
			found := false
			var got []string
			for _, d := range diagnose(f, []byte(strings.Join(out, "\n"))) {
				got = append(got, d.Error())
				if d.Severity == bddl.Error && int(d.Subject.Start.Line) == line {
					found = true
				}
			}
			if !found {
				t.Errorf("%s, %s: no error at line %d; got %v", f, m.name, line, got)
			}
		}
	}
}
