package transitions

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/suggest"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// Record is a rule as one flat JSON record, with synset → count maps as
// in the BEHAVIOR-1K files.
type Record struct {
	Family       string         `json:"family"`
	Name         string         `json:"name"`
	Inputs       map[string]int `json:"inputs"`
	InputStates  []string       `json:"input_states,omitempty"`
	Outputs      map[string]int `json:"outputs"`
	OutputStates []string       `json:"output_states,omitempty"`
	Containers   []string       `json:"containers,omitempty"`
	Machines     []string       `json:"machines,omitempty"`
	HeatSources  []string       `json:"heat_sources,omitempty"`
	Tool         string         `json:"tool,omitempty"`
	Timesteps    int            `json:"timesteps,omitempty"`
	Solvents     []string       `json:"solvents,omitempty"`
	Never        bool           `json:"never,omitempty"`
	Derived      bool           `json:"derived,omitempty"`
}

// Record is the rule as a JSON record.
func (r Rule) Record() Record {
	counts := func(cs []kb.SynsetCount) map[string]int {
		m := map[string]int{}
		for _, c := range cs {
			m[c.Name] = c.Count
		}
		return m
	}
	nameList := func(cs []kb.SynsetCount) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Name)
		}
		return out
	}
	stateList := func(ss []kb.StateLiteral) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.String())
		}
		return out
	}
	return Record{Family: string(r.Family), Name: r.Name, Inputs: counts(r.Inputs), InputStates: stateList(r.InputStates),
		Outputs: counts(r.Outputs), OutputStates: stateList(r.OutputStates), Containers: nameList(r.Containers),
		Machines: nameList(r.Machines), HeatSources: nameList(r.HeatSources), Tool: r.Tool, Timesteps: r.Timesteps,
		Solvents: nameList(r.Solvents), Never: r.Never, Derived: r.Derived}
}

// Mentions reports whether the rule takes, makes or needs s or a
// descendant of s.
func (r Rule) Mentions(b *kb.Base, s kb.SynsetID) bool {
	for _, group := range [][]kb.SynsetCount{r.Inputs, r.Outputs, r.Containers, r.Machines, r.HeatSources, r.Solvents} {
		for _, c := range group {
			if b.IsA(c.Synset, s) {
				return true
			}
		}
	}
	return false
}

// LookupSynset finds a synset by name, or by an instance's name
// (apple.n.01_2 → apple.n.01).
func LookupSynset(b *kb.Base, name string) (kb.SynsetID, bool) {
	if id, ok := b.Lookup(name); ok {
		return id, true
	}
	return b.Lookup(instanceSynset(name))
}

// instanceSynset strips an instance number: apple.n.01_2 → apple.n.01.
func instanceSynset(name string) string {
	i := strings.LastIndexByte(name, '_')
	if i < 0 || i == len(name)-1 || strings.Trim(name[i+1:], "0123456789") != "" {
		return name
	}
	return name[:i]
}

// FamilyNames lists the rule families, comma separated.
func FamilyNames() string {
	var out []string
	for _, f := range Families {
		out = append(out, string(f))
	}
	return strings.Join(out, ", ")
}

// IsFamily reports whether name is a rule family.
func IsFamily(name string) bool { return slices.Contains(Families, Family(name)) }

// RuleHint is the did-you-mean of an unknown rule name: the rules whose
// names are closest by edit distance, else those containing the name,
// else where to find the list.
func RuleHint(base *kb.Base, name string) string {
	var names []string
	for _, x := range Rules(base) {
		names = append(names, x.Name, string(x.Family)+"/"+x.Name)
	}
	if h := suggest.DidYouMean(name, names); h != "" {
		return h
	}
	if close := SimilarRules(base, name); len(close) > 0 {
		return "; did you mean " + strings.Join(close, ", ") + "?"
	}
	return "; 'bddl transition list' shows them"
}

// SimilarRules lists, as FAMILY/NAME, up to five rules whose names
// contain name or are contained in it: suggestions for a name not found.
func SimilarRules(base *kb.Base, name string) []string {
	var close []string
	for _, x := range Rules(base) {
		if strings.Contains(x.Name, name) || strings.Contains(name, x.Name) {
			close = append(close, string(x.Family)+"/"+x.Name)
		}
	}
	if len(close) > 5 {
		close = close[:5]
	}
	return close
}

// ExplainRecord is a rule's explanation as one JSON record: the lines of
// Explain, and the activities whose goals need the rule.
type ExplainRecord struct {
	Family   string        `json:"family"`
	Name     string        `json:"name"`
	Lines    []ExplainLine `json:"lines"`
	NeededBy []string      `json:"needed_by"`
}

// NewExplainRecord is the explanation of r as a record; needed lists the
// activities that need it.
func NewExplainRecord(base *kb.Base, r Rule, needed []string) ExplainRecord {
	rec := ExplainRecord{Family: string(r.Family), Name: r.Name, Lines: ExplainLines(base, r), NeededBy: needed}
	if rec.NeededBy == nil {
		rec.NeededBy = []string{}
	}
	return rec
}

// WriteNeededBy ends a rule's explanation with the activities (of the
// library named where) whose goals need it.
func WriteNeededBy(w io.Writer, r Rule, needed []string, where string) {
	switch {
	case len(r.Outputs) == 0:
		fmt.Fprintln(w, "  needed  by no future instance: the rule only removes")
	case len(needed) == 0:
		fmt.Fprintf(w, "  needed  by no activity goal in %s\n", where)
	default:
		fmt.Fprintf(w, "  needed  by the goals of %d activit%s in %s: %s\n", len(needed), map[bool]string{true: "y", false: "ies"}[len(needed) == 1],
			where, strings.Join(needed, ", "))
	}
}

// Needs reports whether a problem declares a future instance an output
// of the rule can bind to: its goal needs the rule. A problem that does
// not compile needs none.
func Needs(base *kb.Base, r Rule, problem *bddl.Problem) bool {
	prog, err := predicates.Compile(problem, base, predicates.Options{})
	if err != nil {
		return false
	}
	s := prog.InitState()
	for id := 0; id < prog.NumObjects(); id++ {
		if s.Exists(predicates.ObjectID(id)) != predicates.False {
			continue
		}
		inst, ok := base.Lookup(prog.Synset(predicates.ObjectID(id)))
		if !ok {
			continue
		}
		for _, o := range r.Outputs {
			if base.IsA(o.Synset, inst) {
				return true
			}
		}
	}
	return false
}

// VariantNames lists the negative sample variants, comma separated.
func VariantNames() string {
	var out []string
	for _, v := range Variants()[1:] {
		out = append(out, v.String())
	}
	return strings.Join(out, ", ")
}

// ParseVariant is the variant of a name; false when there is none.
func ParseVariant(name string) (Variant, bool) {
	for _, v := range Variants() {
		if v.String() == name {
			return v, true
		}
	}
	return 0, false
}

// WriteSampleEpisode writes a rule's sample as an episode of the
// activity: the steps up to the trigger, the last with the rule's
// outcome unless rulesOff (as a simulator with rules off records it).
// The header's meta names the rule, the variant, the seed and the
// sample's definition.
func WriteSampleEpisode(w io.Writer, r Rule, res *SampleResult, activity string, opts SampleOptions, rulesOff bool) error {
	meta, _ := json.Marshal(map[string]any{"rule": r.Name, "family": r.Family, "variant": opts.Variant.String(),
		"rules_off": rulesOff, "seed": opts.Seed, "definition": res.Definition})
	states := res.Steps
	if !rulesOff {
		states = append(slices.Clone(states[:len(states)-1]), res.After)
	} else if res.Deferred {
		// One unchanged step, on which the rule's deferred outcome lands.
		states = append(slices.Clone(states), states[len(states)-1])
	}
	return WriteStatesEpisode(w, res.Program, activity, meta, states)
}
