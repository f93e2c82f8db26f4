package activities

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/openbddl/bddl/kb"
)

// Knowledge-base rules: checks of the transition rules themselves, for
// `bddl kb check` and `bddl validate --kb-rules`. Rules that name unknown
// synsets are data errors of the load (kb.Base.Check reports them) and
// never reach these checks.

// KBRule describes one knowledge-base check.
type KBRule struct {
	Code     string
	Severity kb.Severity
	Doc      string
}

// KBRules lists the knowledge-base checks of CheckKB.
var KBRules = []KBRule{
	{"rule-nonleaf", kb.SeverityError, "recipe synsets (inputs, outputs, containers, heat sources, machines) are leaves: the simulator maps each to the object categories or particle system of exactly that synset"},
	{"rule-predicate", kb.SeverityError, "input and output states use predicates of the omnigibson domain with their arity"},
	{"rule-inapplicable", kb.SeverityError, "input and output states apply to their synsets (the same table as the activity rule inapplicable); a warning on slicing, dicing and melting rules, whose input states the simulator ignores"},
	{"rule-substance-count", kb.SeverityWarning, "substances have count 1: a substance is one particle system, and the simulator ignores the count"},
	{"rule-duplicate-name", kb.SeverityError, "rule names are unique across all rule files"},
	{"rule-clash", kb.SeverityError, "no two rules of one kind clash: input synsets and input states subset or superset of each other, the same equipment, different outputs; every clashing pair is reported"},
}

// CheckKB checks a knowledge base's transition rules and returns every
// finding, sorted by location.
func CheckKB(b *kb.Base) []kb.Finding {
	var out []kb.Finding
	rules := b.Rules()
	add := func(r *kb.Rule, code string, sev kb.Severity, format string, args ...any) {
		out = append(out, kb.Finding{Severity: sev, Code: code, Location: ruleLocation(r), Message: fmt.Sprintf(format, args...)})
	}
	names := map[string]int{}
	for i := range rules {
		r := &rules[i]
		if r.Name != "" {
			if first, dup := names[r.Name]; dup {
				add(r, "rule-duplicate-name", kb.SeverityError, "rule name %q is used twice: %s rule and %s rule at %s",
					r.Name, r.Kind, rules[first].Kind, ruleLocation(&rules[first]))
			} else {
				names[r.Name] = i
			}
		}
		groups := []struct {
			what string
			cs   []kb.SynsetCount
		}{{"input", r.Inputs}, {"output", r.Outputs}, {"container", r.Containers}, {"heat source", r.HeatSources}, {"machine", r.Machines}}
		for _, g := range groups {
			for _, sc := range g.cs {
				if !b.IsLeaf(sc.Synset) {
					add(r, "rule-nonleaf", kb.SeverityError, "%s rule %q: %s %s is not a leaf synset, so no object category or particle system stands for it",
						r.Kind, r.Name, g.what, sc.Name)
				}
				if (g.what == "input" || g.what == "output") && sc.Count != 1 && b.IsSubstance(sc.Synset) {
					add(r, "rule-substance-count", kb.SeverityWarning, "%s rule %q: substance %s has count %d; a substance is one particle system (count 1)",
						r.Kind, r.Name, sc.Name, sc.Count)
				}
			}
		}
		for _, states := range [][]kb.StateLiteral{r.InputStates, r.OutputStates} {
			for _, s := range states {
				spec, ok := kb.LookupPredicate(kb.DomainOmniGibson, s.Predicate)
				if !ok {
					add(r, "rule-predicate", kb.SeverityError, "%s rule %q: %s uses predicate %s, which the omnigibson domain does not have",
						r.Kind, r.Name, s, s.Predicate)
					continue
				}
				if spec.Arity() != len(s.Args) {
					add(r, "rule-predicate", kb.SeverityError, "%s rule %q: %s gives %s %d argument(s); it takes %d",
						r.Kind, r.Name, s, s.Predicate, len(s.Args), spec.Arity())
					continue
				}
				for _, v := range b.CheckApplicable(kb.DomainOmniGibson, s.Predicate, s.Args) {
					// Slicing, dicing and melting are hard-coded in the
					// simulator, which reads no input states: there the
					// mismatch is a data wart, not a rule that misfires.
					sev, why := kb.SeverityError, ""
					if r.Derived {
						sev, why = kb.SeverityWarning, " (the simulator's "+r.Kind.String()+" rule ignores input states)"
					}
					add(r, "rule-inapplicable", sev, "%s rule %q: %s: %s%s", r.Kind, r.Name, s, trimPred(v.Message, s.Predicate), why)
				}
			}
		}
	}
	out = append(out, clashes(rules)...)
	kb.SortFindings(out)
	return out
}

func ruleLocation(r *kb.Rule) kb.Location {
	if r.Location.File != "" {
		return r.Location
	}
	return kb.Location{File: r.Kind.String() + " (derived)", Key: r.Name}
}

// ruleShape is what the clash check compares of a rule.
type ruleShape struct {
	inputs, equipment []kb.SynsetID // sorted, unique
	states            []string      // sorted input states, "(cooked a.n.01)" / "(not ...)"
	outputs           []kb.SynsetID
	outStates         []string
}

func shapeOf(r *kb.Rule) ruleShape {
	ids := func(groups ...[]kb.SynsetCount) []kb.SynsetID {
		var out []kb.SynsetID
		for _, g := range groups {
			for _, sc := range g {
				out = append(out, sc.Synset)
			}
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	strs := func(ss []kb.StateLiteral) []string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = s.String()
		}
		sort.Strings(out)
		return slices.Compact(out)
	}
	return ruleShape{
		inputs: ids(r.Inputs), equipment: ids(r.Containers, r.HeatSources, r.Machines), states: strs(r.InputStates),
		outputs: ids(r.Outputs), outStates: strs(r.OutputStates),
	}
}

// subset reports whether sorted a ⊆ sorted b.
func subset[T int32 | kb.SynsetID | string](a, b []T) bool {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
		j++
	}
	return true
}

func nested[T kb.SynsetID | string](a, b []T) bool { return subset(a, b) || subset(b, a) }

// clashes reports every pair of rules of one kind that the simulator
// could both find executable on the same contents (counts aside, which it
// does not distinguish by kind of object) with different results: the
// inputs and input states of one are a subset of the other's, with the
// same equipment, and the outputs differ. The reference linter stops at
// the first pair (and reads a field the rule files do not have).
func clashes(rules []kb.Rule) []kb.Finding {
	byKind := map[kb.RuleKind][]int{}
	for i := range rules {
		if rules[i].Kind != kb.RuleWasher && len(rules[i].Outputs) > 0 {
			byKind[rules[i].Kind] = append(byKind[rules[i].Kind], i)
		}
	}
	kinds := make([]kb.RuleKind, 0, len(byKind))
	for k := range byKind {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	var out []kb.Finding
	for _, k := range kinds {
		idx := byKind[k]
		shapes := make([]ruleShape, len(idx))
		for j, i := range idx {
			shapes[j] = shapeOf(&rules[i])
		}
		for b := range idx {
			for a := range b {
				sa, sb := &shapes[a], &shapes[b]
				if !slices.Equal(sa.equipment, sb.equipment) || !nested(sa.inputs, sb.inputs) || !nested(sa.states, sb.states) {
					continue
				}
				if slices.Equal(sa.outputs, sb.outputs) && slices.Equal(sa.outStates, sb.outStates) {
					continue
				}
				ra, rb := &rules[idx[a]], &rules[idx[b]]
				out = append(out, kb.Finding{Severity: kb.SeverityError, Code: "rule-clash", Location: ruleLocation(rb),
					Message: fmt.Sprintf("%s rules %q and %q clash: the inputs of one include the other's (%s / %s), with the same equipment, but they make %s and %s",
						k, ra.Name, rb.Name, synsetNames(ra.Inputs), synsetNames(rb.Inputs), synsetNames(ra.Outputs), synsetNames(rb.Outputs))})
			}
		}
	}
	return out
}

func synsetNames(cs []kb.SynsetCount) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.Name
	}
	return strings.Join(names, " + ")
}
