package kb

import (
	"fmt"
	"sort"
	"strings"
)

// RuleKind is the family of a transition rule. Each family corresponds to
// one BEHAVIOR-1K transition-map file (or, for slicing, dicing and melting,
// to the sliceable, diceable and meltable parameters) and to one rule class
// of the reference simulator (SEMANTICS.md §4).
type RuleKind uint8

const (
	RuleHeatCook              RuleKind = iota + 1 // heat_cook.json: cook inputs in a container on a heat source
	RuleToggleableMachine                         // single_toggleable_machine.json: a machine turned on
	RuleMixingStick                               // mixing_stick.json: stir substances with a mixing tool
	RuleSubstanceCooking                          // substance_cooking.json: a substance cooked in a hot container
	RuleSubstanceWaterCooking                     // substance_watercooking.json: the same with cooked water
	RuleWasher                                    // washer.json: what a washing machine removes
	RuleSlicing                                   // derived from sliceable parameters
	RuleDicing                                    // derived from diceable parameters
	RuleMelting                                   // derived from meltable parameters
)

var ruleKindNames = map[RuleKind]string{
	RuleHeatCook:              "heat_cook",
	RuleToggleableMachine:     "single_toggleable_machine",
	RuleMixingStick:           "mixing_stick",
	RuleSubstanceCooking:      "substance_cooking",
	RuleSubstanceWaterCooking: "substance_watercooking",
	RuleWasher:                "washer",
	RuleSlicing:               "slicing",
	RuleDicing:                "dicing",
	RuleMelting:               "melting",
}

// String is the kind's BEHAVIOR-1K file stem.
func (k RuleKind) String() string {
	if s, ok := ruleKindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("rule(%d)", uint8(k))
}

// MarshalText makes kinds readable in JSON output.
func (k RuleKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// ruleKindByFile maps a transition-map file stem to the kind it loads as.
// slicing, dicing and melting are derived from parameters instead, as the
// reference simulator does, and cross-checked against their files.
var ruleKindByFile = map[string]RuleKind{
	"heat_cook":                 RuleHeatCook,
	"single_toggleable_machine": RuleToggleableMachine,
	"mixing_stick":              RuleMixingStick,
	"substance_cooking":         RuleSubstanceCooking,
	"substance_watercooking":    RuleSubstanceWaterCooking,
	"washer":                    RuleWasher,
}

// SynsetCount is a synset with a number of instances.
type SynsetCount struct {
	Synset SynsetID `json:"-"`
	Name   string   `json:"synset"`
	Count  int      `json:"count"`
}

// StateLiteral is a required input state or a produced output state:
// (Predicate Args...) is Value. Args has one synset for unary predicates
// and two for binary ones ("raw_egg.n.01,bagel_dough.n.01" in the data).
type StateLiteral struct {
	Predicate string     `json:"predicate"`
	Args      []SynsetID `json:"-"`
	Names     []string   `json:"args"`
	Value     bool       `json:"value"`
}

func (s StateLiteral) String() string {
	lit := "(" + s.Predicate + " " + strings.Join(s.Names, " ") + ")"
	if !s.Value {
		return "(not " + lit + ")"
	}
	return lit
}

// Rule is one transition rule with its synsets resolved.
type Rule struct {
	Kind         RuleKind       `json:"kind"`
	Name         string         `json:"name"`
	Inputs       []SynsetCount  `json:"inputs,omitempty"`
	InputStates  []StateLiteral `json:"input_states,omitempty"`
	Outputs      []SynsetCount  `json:"outputs,omitempty"`
	OutputStates []StateLiteral `json:"output_states,omitempty"`
	// Equipment: the containers a heat_cook recipe may use, its heat
	// sources, and the machines of single_toggleable_machine recipes.
	Containers  []SynsetCount `json:"containers,omitempty"`
	HeatSources []SynsetCount `json:"heat_sources,omitempty"`
	Machines    []SynsetCount `json:"machines,omitempty"`
	// Timesteps is how many consecutive steps a heat_cook recipe needs;
	// 0 when unspecified, which means it fires at once.
	Timesteps int `json:"timesteps,omitempty"`
	// For washer rules: the washer removes the single input (a substance)
	// always (no Solvents, not Never), never (Never), or when any of
	// Solvents is also in the drum.
	Solvents []SynsetCount `json:"solvents,omitempty"`
	Never    bool          `json:"never,omitempty"`
	// Derived is true for rules built from sliceable, diceable and meltable
	// parameters rather than read from a rule file.
	Derived  bool     `json:"derived,omitempty"`
	Location Location `json:"-"`
}

// Rules returns every transition rule in load order: the rule files in
// the order above, each in file order (the reference simulator picks the
// first executable recipe in that order), then the derived rules.
func (b *Base) Rules() []Rule { return b.rules }

// RulesOfKind returns the rules of one kind in order.
func (b *Base) RulesOfKind(k RuleKind) []Rule {
	var out []Rule
	for _, r := range b.rules {
		if r.Kind == k {
			out = append(out, r)
		}
	}
	return out
}

// RulesConsuming returns the rules that take id as an input (exact synset).
func (b *Base) RulesConsuming(id SynsetID) []Rule { return b.ruleList(b.consumers[id]) }

// RulesProducing returns the rules that output id (exact synset).
func (b *Base) RulesProducing(id SynsetID) []Rule { return b.ruleList(b.producers[id]) }

// RulesUsing returns the rules that need id as equipment: a container,
// heat source, machine or washer solvent.
func (b *Base) RulesUsing(id SynsetID) []Rule { return b.ruleList(b.users[id]) }

func (b *Base) ruleList(idx []int32) []Rule {
	out := make([]Rule, len(idx))
	for i, k := range idx {
		out[i] = b.rules[k]
	}
	return out
}

// indexRules derives the slicing, dicing and melting rules from the
// parameters and builds the consumer and producer indexes.
func (b *Base) indexRules() {
	b.rules = append(b.rules, b.derivedRules()...)
	b.consumers = map[SynsetID][]int32{}
	b.producers = map[SynsetID][]int32{}
	b.users = map[SynsetID][]int32{}
	add := func(m map[SynsetID][]int32, id SynsetID, i int32) {
		if l := m[id]; len(l) == 0 || l[len(l)-1] != i {
			m[id] = append(l, i)
		}
	}
	for i := range b.rules {
		r := &b.rules[i]
		k := int32(i)
		for _, in := range r.Inputs {
			add(b.consumers, in.Synset, k)
		}
		for _, out := range r.Outputs {
			add(b.producers, out.Synset, k)
		}
		for _, group := range [][]SynsetCount{r.Containers, r.HeatSources, r.Machines, r.Solvents} {
			for _, e := range group {
				add(b.users, e.Synset, k)
			}
		}
	}
}

// derivedRules builds slicing, dicing and melting rules for every leaf
// synset with the parameters, in id order, named as in the BEHAVIOR-1K
// files. Only leaves get rules: they are the kinds objects are made of.
func (b *Base) derivedRules() []Rule {
	var slicing, dicing, melting []Rule
	one := func(id SynsetID, n int) []SynsetCount {
		return []SynsetCount{{Synset: id, Name: b.names[id], Count: n}}
	}
	cooked := func(id SynsetID, v bool) []StateLiteral {
		return []StateLiteral{{Predicate: "cooked", Args: []SynsetID{id}, Names: []string{b.names[id]}, Value: v}}
	}
	for i := range b.names {
		id := SynsetID(i)
		if !b.IsLeaf(id) {
			continue
		}
		name := b.names[id]
		if half, ok := b.SlicedInto(id); ok {
			// The reference simulator creates one object per part of the
			// model; BEHAVIOR-1K's slicing.json documents two halves.
			slicing = append(slicing, Rule{Kind: RuleSlicing, Name: name + "-slicing", Inputs: one(id, 1),
				Outputs: one(half, 2), Derived: true})
		}
		if d, ok := b.DicedInto(id, false); ok {
			dicing = append(dicing, Rule{Kind: RuleDicing, Name: "uncooked-" + name + "-dicing", Inputs: one(id, 1),
				InputStates: cooked(id, false), Outputs: one(d, 1), Derived: true})
		}
		if d, ok := b.DicedInto(id, true); ok {
			dicing = append(dicing, Rule{Kind: RuleDicing, Name: "cooked-" + name + "-dicing", Inputs: one(id, 1),
				InputStates: cooked(id, true), Outputs: one(d, 1), Derived: true})
		}
		if m, ok := b.MeltsInto(id); ok {
			melting = append(melting, Rule{Kind: RuleMelting, Name: name + "-melting", Inputs: one(id, 1),
				Outputs: one(m, 1), Derived: true})
		}
	}
	out := append(slicing, dicing...)
	return append(out, melting...)
}

// ruleDecoder turns rule files (JSON or the YAML equivalent) into Rules.
type ruleDecoder struct {
	src    source
	lookup func(string) (SynsetID, bool)
	p      *problems
}

// recipes decodes a list of recipe records of one kind.
func (d *ruleDecoder) recipes(kind RuleKind, g gval, prefix ...string) []Rule {
	if g.kind != gList {
		d.p.errorf(d.src.locate(g, prefix...), "rule-type", "%s rules must be a list of records, found %s", kind, g.text())
		return nil
	}
	rules := make([]Rule, 0, len(g.list))
	for i, rec := range g.list {
		key := append(append([]string(nil), prefix...), fmt.Sprintf("[%d]", i))
		if r, ok := d.recipe(kind, rec, key); ok {
			rules = append(rules, r)
		}
	}
	return rules
}

func (d *ruleDecoder) recipe(kind RuleKind, g gval, key []string) (Rule, bool) {
	if g.kind != gObject {
		d.p.errorf(d.src.locate(g, key...), "rule-type", "a rule must be an object, found %s", g.text())
		return Rule{}, false
	}
	r := Rule{Kind: kind, Location: d.src.at(g, key...)}
	if name, ok := g.field("rule_name"); ok && name.kind == gString {
		r.Name = name.str
		key = append(key[:len(key)-1:len(key)-1], fmt.Sprintf("%s %q", key[len(key)-1], name.str))
	} else {
		d.p.errorf(d.src.locate(g, key...), "rule-name", "rule has no rule_name")
	}
	good := true
	for i, field := range g.keys {
		v := g.vals[i]
		fk := append(key[:len(key):len(key)], field)
		var ok bool
		switch field {
		case "rule_name":
			ok = true
		case "input_synsets":
			r.Inputs, ok = d.counts(v, fk)
		case "output_synsets":
			r.Outputs, ok = d.counts(v, fk)
		case "input_states":
			r.InputStates, ok = d.states(v, fk)
		case "output_states":
			r.OutputStates, ok = d.states(v, fk)
		case "container":
			r.Containers, ok = d.counts(v, fk)
		case "heat_source":
			r.HeatSources, ok = d.counts(v, fk)
		case "machine":
			r.Machines, ok = d.counts(v, fk)
		case "timesteps":
			switch {
			case v.kind == gNull:
				ok = true
			case v.kind == gNumber && v.num >= 0 && v.num == float64(int(v.num)):
				r.Timesteps, ok = int(v.num), true
			default:
				d.p.errorf(d.src.locate(v, fk...), "rule-type", "timesteps must be a non-negative integer or null, found %s", v.text())
			}
		default:
			// Unknown fields (such as washed_item in per-item washer files)
			// are kept out of the typed record but do not invalidate it.
			ok = true
		}
		good = good && ok
	}
	if n := totalCount(r.Outputs); n > MaxRuleOutputs {
		d.p.errorf(d.src.locate(g, append(key[:len(key):len(key)], "output_synsets")...), "rule-limit",
			"rule %q creates %d objects, more than the %d a rule may create", r.Name, n, MaxRuleOutputs)
		good = false
	}
	if len(r.Outputs) == 0 && good {
		d.p.notef(SeverityWarning, r.Location, "rule-no-output", "rule %q has no output synsets", r.Name)
	}
	return r, good
}

// Limits on what one rule may name, checked when rules are loaded (so by
// kb check too): the BEHAVIOR-1K rules name at most 16 of an input, 6 of
// an output and 11 synsets in one field. A rule past them is refused with
// its file and key, before any engine creates its outputs: a count of
// 10^8 would otherwise exhaust memory at the first step it fires.
const (
	MaxRuleCount     = 100 // the count of one synset
	MaxRecipeSynsets = 64  // the synsets of one field
	MaxRuleOutputs   = 100 // the objects one firing creates
)

func totalCount(cs []SynsetCount) int {
	n := 0
	for _, c := range cs {
		n += c.Count
	}
	return n
}

// counts decodes {synset: count} (null is empty).
func (d *ruleDecoder) counts(g gval, key []string) ([]SynsetCount, bool) {
	if g.kind == gNull {
		return nil, true
	}
	if g.kind != gObject {
		d.p.errorf(d.src.locate(g, key...), "rule-type", "expected {synset: count}, found %s", g.text())
		return nil, false
	}
	out := make([]SynsetCount, 0, len(g.keys))
	good := true
	for i, name := range g.keys {
		v := g.vals[i]
		id, ok := d.lookup(name)
		if !ok {
			d.p.errorf(d.src.locate(v, append(key, name)...), "unknown-synset", "rule names unknown synset %q", name)
			good = false
			continue
		}
		if v.kind != gNumber || v.num < 1 || v.num != float64(int(v.num)) {
			d.p.errorf(d.src.locate(v, append(key, name)...), "rule-type", "count of %s must be a positive integer, found %s", name, v.text())
			good = false
			continue
		}
		if v.num > MaxRuleCount {
			d.p.errorf(d.src.locate(v, append(key, name)...), "rule-limit", "count of %s is %.0f, more than the %d a rule may name", name, v.num, MaxRuleCount)
			good = false
			continue
		}
		out = append(out, SynsetCount{Synset: id, Name: name, Count: int(v.num)})
	}
	if len(g.keys) > MaxRecipeSynsets {
		d.p.errorf(d.src.locate(g, key...), "rule-limit", "%d synsets, more than the %d a rule may name in one field", len(g.keys), MaxRecipeSynsets)
		good = false
	}
	return out, good
}

// states decodes {"a" or "a,b": [[predicate, bool], ...]} (null is empty).
func (d *ruleDecoder) states(g gval, key []string) ([]StateLiteral, bool) {
	if g.kind == gNull {
		return nil, true
	}
	if g.kind != gObject {
		d.p.errorf(d.src.locate(g, key...), "rule-type", "expected {synsets: [[predicate, value], ...]}, found %s", g.text())
		return nil, false
	}
	var out []StateLiteral
	good := true
	for i, joined := range g.keys {
		v := g.vals[i]
		k := append(key, joined)
		names := strings.Split(joined, ",")
		args := make([]SynsetID, len(names))
		for j, n := range names {
			names[j] = strings.TrimSpace(n)
			id, ok := d.lookup(names[j])
			if !ok {
				d.p.errorf(d.src.locate(v, k...), "unknown-synset", "rule state names unknown synset %q", names[j])
				good = false
			}
			args[j] = id
		}
		if v.kind != gList {
			d.p.errorf(d.src.locate(v, k...), "rule-type", "states must be a list of [predicate, value] pairs, found %s", v.text())
			good = false
			continue
		}
		for _, pair := range v.list {
			if pair.kind != gList || len(pair.list) != 2 || pair.list[0].kind != gString || pair.list[1].kind != gBool {
				d.p.errorf(d.src.locate(pair, k...), "rule-type", "a state must be a [predicate, boolean] pair, found %s", pair.text())
				good = false
				continue
			}
			out = append(out, StateLiteral{Predicate: pair.list[0].str, Args: args, Names: names, Value: pair.list[1].boolean()})
		}
	}
	return out, good
}

// washer decodes washer.json: {solute: null | [] | [solvent, ...]}.
func (d *ruleDecoder) washer(g gval, prefix ...string) []Rule {
	if g.kind != gObject {
		d.p.errorf(d.src.locate(g, prefix...), "rule-type", "washer rules must be an object {substance: solvents}, found %s", g.text())
		return nil
	}
	var rules []Rule
	for i, solute := range g.keys {
		v := g.vals[i]
		k := append(append([]string(nil), prefix...), solute)
		id, ok := d.lookup(solute)
		if !ok {
			d.p.errorf(d.src.locate(v, k...), "unknown-synset", "washer rule names unknown synset %q", solute)
			continue
		}
		r := Rule{Kind: RuleWasher, Name: "washer-" + solute, Location: d.src.at(v, k...),
			Inputs: []SynsetCount{{Synset: id, Name: solute, Count: 1}}}
		switch v.kind {
		case gNull:
			r.Never = true
		case gList:
			for _, s := range v.list {
				if s.kind != gString {
					d.p.errorf(d.src.locate(s, k...), "rule-type", "a solvent must be a synset name, found %s", s.text())
					continue
				}
				sid, ok := d.lookup(s.str)
				if !ok {
					d.p.errorf(d.src.locate(s, k...), "unknown-synset", "washer rule names unknown solvent %q", s.str)
					continue
				}
				r.Solvents = append(r.Solvents, SynsetCount{Synset: sid, Name: s.str, Count: 1})
			}
		default:
			d.p.errorf(d.src.locate(v, k...), "rule-type", "washer entry must be null or a list of solvents, found %s", v.text())
			continue
		}
		rules = append(rules, r)
	}
	return rules
}

// decodeRuleFile decodes one rule file by its stem.
func (d *ruleDecoder) decodeRuleFile(stem string, g gval, prefix ...string) []Rule {
	kind, ok := ruleKindByFile[stem]
	if !ok {
		return nil
	}
	if kind == RuleWasher {
		return d.washer(g, prefix...)
	}
	return d.recipes(kind, g, prefix...)
}

// ruleFileOrder orders rule files so kinds load in a fixed order.
func ruleFileOrder(stems []string) {
	sort.SliceStable(stems, func(i, j int) bool {
		ki, kj := ruleKindByFile[stems[i]], ruleKindByFile[stems[j]]
		if ki != kj {
			return ki < kj
		}
		return stems[i] < stems[j]
	})
}

// Describe renders a rule on one line, e.g.
// "heat_cook sugar_cookies: sugar_cookie_dough.n.01 → 6 sugar_cookie.n.01 (container cookie_sheet.n.01, heat source oven.n.01)".
func (r Rule) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: ", r.Kind, r.Name)
	if r.Kind == RuleWasher {
		in := r.Inputs[0].Name
		switch {
		case r.Never:
			fmt.Fprintf(&b, "the washer never removes %s", in)
		case len(r.Solvents) == 0:
			fmt.Fprintf(&b, "the washer always removes %s", in)
		default:
			fmt.Fprintf(&b, "the washer removes %s with any of %s", in, joinCounts(r.Solvents, false))
		}
		return b.String()
	}
	b.WriteString(joinCounts(r.Inputs, true))
	if len(r.InputStates) > 0 {
		b.WriteString(" " + joinStates(r.InputStates))
	}
	b.WriteString(" → ")
	b.WriteString(joinCounts(r.Outputs, true))
	if len(r.OutputStates) > 0 {
		b.WriteString(" " + joinStates(r.OutputStates))
	}
	var eq []string
	if len(r.Containers) > 0 {
		eq = append(eq, "container "+joinCounts(r.Containers, false))
	}
	if len(r.HeatSources) > 0 {
		eq = append(eq, "heat source "+joinCounts(r.HeatSources, false))
	}
	if len(r.Machines) > 0 {
		eq = append(eq, "machine "+joinCounts(r.Machines, false))
	}
	if r.Timesteps > 0 {
		eq = append(eq, fmt.Sprintf("%d steps", r.Timesteps))
	}
	if len(eq) > 0 {
		b.WriteString(" (" + strings.Join(eq, ", ") + ")")
	}
	return b.String()
}

func joinCounts(cs []SynsetCount, counts bool) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		if counts && c.Count != 1 {
			parts[i] = fmt.Sprintf("%d %s", c.Count, c.Name)
		} else {
			parts[i] = c.Name
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, " + ")
}

func joinStates(ss []StateLiteral) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = s.String()
	}
	return "[" + strings.Join(parts, " ") + "]"
}
