package bddl

import (
	"strconv"
	"strings"
)

// Natural-language rendering, for authors reviewing a definition and for
// reports: "for every sugar_cookie: the sugar_cookie is cooked and is on
// top of cookie_sheet 1".

// phrase is how a predicate reads after its subject, when it holds and
// when it does not. "%s" stands for the second argument.
type phrase struct{ pos, neg string }

var phrases = map[string]phrase{
	"cooked":     {"is cooked", "is not cooked"},
	"burnt":      {"is burnt", "is not burnt"},
	"frozen":     {"is frozen", "is not frozen"},
	"open":       {"is open", "is closed"},
	"closed":     {"is closed", "is not closed"},
	"folded":     {"is folded", "is not folded"},
	"unfolded":   {"is unfolded", "is not unfolded"},
	"toggled_on": {"is switched on", "is switched off"},
	"hot":        {"is hot", "is not hot"},
	"on_fire":    {"is on fire", "is not on fire"},
	"future":     {"does not exist yet", "already exists"},
	"real":       {"exists", "does not exist"},
	"broken":     {"is broken", "is not broken"},
	"dusty":      {"is dusty", "is not dusty"},
	"stained":    {"is stained", "is not stained"},
	"sliced":     {"is sliced", "is not sliced"},
	"soaked":     {"is soaked", "is not soaked"},
	"perished":   {"is perished", "is not perished"},
	"screwed":    {"is screwed in", "is not screwed in"},
	"timeset":    {"has its timer set", "does not have its timer set"},
	"saturated":  {"is saturated with %s", "is not saturated with %s"},
	"covered":    {"is covered with %s", "is not covered with %s"},
	"filled":     {"is filled with %s", "is not filled with %s"},
	"contains":   {"contains %s", "does not contain %s"},
	"empty":      {"is empty of %s", "is not empty of %s"},
	"ontop":      {"is on top of %s", "is not on top of %s"},
	"onfloor":    {"is on %s", "is not on %s"},
	"nextto":     {"is next to %s", "is not next to %s"},
	"under":      {"is under %s", "is not under %s"},
	"touching":   {"is touching %s", "is not touching %s"},
	"inside":     {"is inside %s", "is not inside %s"},
	"overlaid":   {"is overlaid on %s", "is not overlaid on %s"},
	"attached":   {"is attached to %s", "is not attached to %s"},
	"draped":     {"is draped over %s", "is not draped over %s"},
	"insource":   {"is a source of %s", "is not a source of %s"},
	"inroom":     {"is in %s", "is not in %s"},
	"grasped":    {"is grasped by %s", "is not grasped by %s"},
}

// Explain renders a formula as an English sentence.
func Explain(f Formula) string {
	e := explainer{types: map[string]string{}}
	return e.formula(f)
}

// ExplainProblem renders a problem's :init and :goal as English text, one
// literal or top-level goal conjunct per line.
func ExplainProblem(p *Problem) string {
	var b strings.Builder
	b.WriteString(p.Name.Name)
	if p.Domain.Name != "" {
		b.WriteString(" (domain " + p.Domain.Name + ")")
	}
	b.WriteString("\n\nInitially:\n")
	e := explainer{types: map[string]string{}}
	for _, f := range p.Init {
		b.WriteString("  - " + e.formula(f) + "\n")
	}
	b.WriteString("\nGoal:")
	if and, ok := p.Goal.(*And); ok {
		b.WriteString(" all of\n")
		for _, x := range and.Xs {
			b.WriteString("  - " + e.formula(x) + "\n")
		}
	} else if p.Goal != nil {
		b.WriteString("\n  - " + e.formula(p.Goal) + "\n")
	} else {
		b.WriteString(" (none)\n")
	}
	return b.String()
}

type explainer struct {
	types map[string]string // bound variable → its declared type
}

// Lemma is the word of a synset: sugar_cookie.n.01 → sugar_cookie.
func Lemma(synset string) string {
	if i := strings.IndexByte(synset, '.'); i > 0 {
		return synset[:i]
	}
	return synset
}

func (e *explainer) term(t Term) string {
	switch t.Kind {
	case VariableTerm:
		if typ, ok := e.types[t.Key()]; ok {
			return "the " + Lemma(typ)
		}
		return t.Text()
	case InstanceTerm:
		syn, suffix, _ := SplitInstance(t.Name)
		if suffix == "*" {
			return "every " + Lemma(syn)
		}
		return Lemma(syn) + " " + suffix
	}
	return "the " + strings.ReplaceAll(t.Name, "_", " ")
}

// predicate renders an atom of a known predicate without its subject.
func (e *explainer) predicate(a *Atom, ph phrase, negated bool) string {
	text := ph.pos
	if negated {
		text = ph.neg
	}
	if strings.Contains(text, "%s") {
		obj := "?"
		if len(a.Args) > 1 {
			obj = e.term(a.Args[1])
		}
		text = strings.Replace(text, "%s", obj, 1)
	}
	return text
}

// literal splits a literal into its subject and the rest of the sentence.
func (e *explainer) literal(f Formula) (subject, rest string, ok bool) {
	negated := false
	if n, isNot := f.(*Not); isNot {
		f, negated = n.X, true
	}
	a, isAtom := f.(*Atom)
	if !isAtom || len(a.Args) == 0 {
		return "", "", false
	}
	ph, known := phrases[a.Pred.Key()]
	if !known {
		return "", "", false
	}
	return e.term(a.Args[0]), e.predicate(a, ph, negated), true
}

// opaque renders an atom of a predicate without a phrase: pred(a, b).
func (e *explainer) opaque(a *Atom) string {
	if len(a.Args) == 0 {
		return a.Pred.Name
	}
	args := make([]string, len(a.Args))
	for i, t := range a.Args {
		args[i] = e.term(t)
	}
	return a.Pred.Name + "(" + strings.Join(args, ", ") + ")"
}

func (e *explainer) formula(f Formula) string {
	switch n := f.(type) {
	case nil:
		return "nothing"
	case *Atom, *Not:
		if subj, rest, ok := e.literal(f); ok {
			return subj + " " + rest
		}
		if not, ok := f.(*Not); ok {
			if a, ok := not.X.(*Atom); ok {
				return e.opaque(a) + " does not hold"
			}
			return "it is not the case that " + e.formula(not.X)
		}
		return e.opaque(n.(*Atom)) + " holds"
	case *And:
		return e.join(n.Xs, "and")
	case *Or:
		if len(n.Xs) < 2 {
			return e.join(n.Xs, "or")
		}
		return "either " + e.join(n.Xs, "or")
	case *Imply:
		return "if " + e.formula(n.If) + ", then " + e.formula(n.Then)
	case *Quant:
		type saved struct {
			typ string
			ok  bool
		}
		outer := make([]saved, len(n.Vars))
		for i, v := range n.Vars {
			typ, ok := e.types[v.Var.Key()]
			outer[i] = saved{typ, ok}
			e.types[v.Var.Key()] = v.Type.Name
		}
		defer func() {
			for i, v := range n.Vars {
				if outer[i].ok {
					e.types[v.Var.Key()] = outer[i].typ
				} else {
					delete(e.types, v.Var.Key())
				}
			}
		}()
		body := e.formula(n.Body)
		first := Lemma(n.Vars[0].Type.Name)
		switch n.Kind {
		case Forall:
			return "for every " + first + ": " + body
		case Exists:
			return "for some " + first + ": " + body
		case ForN:
			return "for exactly " + strconv.Itoa(n.N) + " of the " + first + " objects: " + body
		case ForPairs:
			return "pairing every " + first + " with its own " + Lemma(n.Vars[1].Type.Name) + ": " + body
		case ForNPairs:
			return "for exactly " + strconv.Itoa(n.N) + " pairs of " + first + " and " + Lemma(n.Vars[1].Type.Name) + ": " + body
		}
	}
	return ""
}

// join renders operands, sharing the subject of consecutive literals about
// the same object: "the apple is cooked and is on top of plate 1".
func (e *explainer) join(xs []Formula, word string) string {
	var parts []string
	prevSubject := ""
	for _, x := range xs {
		subj, rest, ok := e.literal(x)
		switch {
		case ok && subj == prevSubject:
			parts = append(parts, rest)
		case ok:
			parts = append(parts, subj+" "+rest)
			prevSubject = subj
		default:
			parts = append(parts, e.formula(x))
			prevSubject = ""
		}
	}
	switch len(parts) {
	case 0:
		if word == "and" {
			return "nothing is required"
		}
		return "nothing can hold"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " " + word + " " + parts[len(parts)-1]
}
