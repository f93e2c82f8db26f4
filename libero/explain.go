package libero

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/openbddl/bddl/bddl"
)

// Explanation is a LIBERO problem in plain English, for --format json.
// Its fields are those of bddl explain's record (bddl schema explain):
// Init holds where each thing is placed and the other :init atoms.
type Explanation struct {
	Problem     string   `json:"problem"`
	Domain      string   `json:"domain"`
	Instruction string   `json:"instruction"`
	Objects     []string `json:"objects"`
	Init        []string `json:"init"`
	Goal        []string `json:"goal"`
}

// article is "an" before a vowel, else "a".
func article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an"
	}
	return "a"
}

// words makes a name readable: akita_black_bowl_1 -> akita black bowl 1.
func words(s string) string { return strings.ReplaceAll(s, "_", " ") }

// phrase renders an atom in English with LIBERO's meaning.
func (t *Task) phrase(a *bddl.Atom) string {
	arg := func(i int) string {
		if i >= len(a.Args) {
			return "?"
		}
		name := a.Args[i].Name
		if ref := t.Lookup(name); ref.Kind == RefRegion {
			r := t.Regions[ref.Index]
			switch {
			case r.OnWorkspace:
				return fmt.Sprintf("the region %s of the %s", words(r.Name.Name), words(r.Region.Target.Name))
			default:
				return fmt.Sprintf("the %s of %s", words(r.Name.Name), words(r.Region.Target.Name))
			}
		}
		return words(name)
	}
	switch a.Pred.Key() {
	case "on":
		return fmt.Sprintf("%s is on %s", arg(0), arg(1))
	case "in":
		return fmt.Sprintf("%s is inside %s", arg(0), arg(1))
	case "open":
		return fmt.Sprintf("%s is open", arg(0))
	case "close":
		return fmt.Sprintf("%s is closed", arg(0))
	case "turnon":
		return fmt.Sprintf("%s is turned on", arg(0))
	case "turnoff":
		return fmt.Sprintf("%s is turned off", arg(0))
	case "up":
		return fmt.Sprintf("%s is lifted (at least 1 m high)", arg(0))
	}
	return bddl.String(a)
}

// ExplainJSON explains a LIBERO problem as a record.
func ExplainJSON(p *bddl.Problem) Explanation {
	t := Resolve(p)
	e := Explanation{Problem: p.Name.Name, Domain: p.Domain.Name, Objects: []string{}, Init: []string{}, Goal: []string{}}
	if p.Libero != nil {
		e.Instruction = p.Libero.Language
	}
	for _, en := range t.Entities {
		kind := "object"
		switch {
		case en.Workspace:
			kind = "workspace"
		case en.Fixture:
			kind = "fixture"
		}
		e.Objects = append(e.Objects, fmt.Sprintf("%s: %s %s (%s)", en.Decl.Name, article(en.Type.Name), words(en.Type.Name), kind))
	}
	for _, a := range t.InitAtoms() {
		s := t.phrase(a)
		if len(a.Args) != 2 || a.Pred.Key() != "on" {
			e.Init = append(e.Init, s)
			continue
		}
		if ref := t.Lookup(a.Args[1].Name); ref.Kind == RefRegion {
			r := t.Regions[ref.Index]
			if r.HasRanges() {
				q := r.Ranges[0]
				s += fmt.Sprintf(", placed at random in x %s..%s, y %s..%s", num(q.V[0]), num(q.V[2]), num(q.V[1]), num(q.V[3]))
				if n := len(r.Yaw); n > 0 && (r.Yaw[n-1].V[0].Value != 0 || r.Yaw[n-1].V[1].Value != 0) {
					y := r.Yaw[n-1].V
					if y[0].Value == y[1].Value {
						s += fmt.Sprintf(", turned %s rad", num(y[0]))
					} else {
						s += fmt.Sprintf(", turned %s..%s rad", num(y[0]), num(y[1]))
					}
				}
			}
		}
		e.Init = append(e.Init, s)
	}
	for _, a := range t.GoalAtoms() {
		e.Goal = append(e.Goal, t.phrase(a))
	}
	return e
}

// Explain renders a LIBERO problem in plain English.
func Explain(p *bddl.Problem) string {
	e := ExplainJSON(p)
	var b strings.Builder
	fmt.Fprintf(&b, "Task (%s): %s\n\nObjects:\n", e.Problem, e.Instruction)
	for _, o := range e.Objects {
		fmt.Fprintf(&b, "  - %s\n", o)
	}
	b.WriteString("\nAt the start:\n")
	for _, o := range e.Init {
		fmt.Fprintf(&b, "  - %s\n", o)
	}
	b.WriteString("\nThe task succeeds when, at one step, all of these hold:\n")
	for _, o := range e.Goal {
		fmt.Fprintf(&b, "  - %s\n", o)
	}
	return b.String()
}

// num writes a number of a definition for a person: a decimal to 6
// significant digits, so the float noise of generated files
// (-0.21000000000000002) reads as the number meant (-0.21); an
// expression (pi) as written.
func num(n bddl.Number) string {
	if _, err := strconv.ParseFloat(n.Text, 64); err != nil {
		return n.Text
	}
	return strconv.FormatFloat(n.Value, 'g', 6, 64)
}
