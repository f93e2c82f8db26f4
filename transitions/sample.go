package transitions

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// Variant is a way of building a sample: the positive case (the rule
// fires) or one of the ways it must not fire, for negative tests.
type Variant uint8

const (
	Positive        Variant = iota
	MissingInput            // one object input missing, or a substance input not in the container
	ExtraInput              // an extra object (machines, system recipes) or substance (mixing) in the container
	WrongContainer          // a container or machine the recipe does not allow
	HeatOff                 // the heat source is not toggled on
	HeatOpen                // the heat source is open but must be closed
	NotHot                  // the container is not hot (substance cooking)
	InputStateWrong         // an input state has the other value
	TooFewSteps             // one step short of the recipe's timesteps
	NoEdge                  // the trigger already held before the inputs were in place
	NotTouching             // the slicer or mixing tool does not touch
	NotInContainer          // the inputs are away from the container
	NoSolvent               // the washer's solvent is missing
	TooCold                 // the max temperature stays below melting
	numVariants
)

var variantNames = [...]string{"positive", "missing-input", "extra-input", "wrong-container", "heat-off",
	"heat-open", "not-hot", "input-state-wrong", "too-few-steps", "no-edge", "not-touching",
	"not-in-container", "no-solvent", "too-cold"}

func (v Variant) String() string {
	if int(v) < len(variantNames) {
		return variantNames[v]
	}
	return "variant(?)"
}

// Variants lists every variant, the positive case first.
func Variants() []Variant {
	out := make([]Variant, numVariants)
	for i := range out {
		out[i] = Variant(i)
	}
	return out
}

// ErrNotApplicable is returned by Sample for a variant that does not
// apply to the rule (HeatOpen for a stove, which need not be closed).
var ErrNotApplicable = errors.New("transitions: the variant does not apply to this rule")

// ErrNeverFires is returned for a rule that cannot fire by its own data:
// a washer rule whose substance is never removed, or a melting, slicing or
// dicing rule whose input is a substance (the reference applies them to
// objects only).
var ErrNeverFires = errors.New("transitions: the rule never fires")

// SampleOptions configure Sample.
type SampleOptions struct {
	Seed    uint64  // jitters positions; the same seed gives the same sample
	Variant Variant // Positive unless building a negative case
	// Alone runs the engine with this rule only, so that an earlier
	// recipe of the file with the same inputs does not fire instead.
	Alone bool
}

// SampleResult is a minimal symbolic scene in which a rule fires: the
// definition of a small activity holding the rule's inputs, equipment and
// (future) outputs, the states recorded with rules off, one per step (the
// trigger happens at the last), and the last state with the rule applied.
type SampleResult struct {
	Rule       Rule
	Variant    Variant
	Definition string // the activity's BDDL text
	Program    *predicates.Program
	Steps      []*predicates.State
	After      *predicates.State
	// Outcome is what the engine's Step did at the last state (a copy).
	Outcome Outcome
	// Early are the firings of the steps before the last, which a
	// well-formed sample has none of.
	Early []Firing
	// Deferred reports that part of the outcome lands one step after the
	// firing (see Engine.Flush): a rules-off episode of the sample then
	// needs one more step for it.
	Deferred bool
	// The roles of the scene's instances.
	Container, Tool, HeatSource ObjectID
	Inputs                      []ObjectID // object inputs, in rule order
	InputSubstances             []ObjectID
	Outputs                     [][]ObjectID // per rule output: its declared instances
	Item                        ObjectID     // the washer or dryer's load
}

// Sample builds the minimal scene of a rule (see SampleResult), runs the
// engine over its steps, and returns it: the executable example of a
// recipe that `bddl transition sample` writes as an episode and the tests
// check every rule with. With a negative Variant the scene is built the
// same way but broken in that one respect; ErrNotApplicable says the
// variant does not apply to the rule.
func Sample(base *kb.Base, rule Rule, opts SampleOptions) (*SampleResult, error) {
	b := &builder{base: base, rule: rule, v: opts.Variant, rng: rand.New(rand.NewPCG(opts.Seed, 0x9e3779b97f4a7c15)),
		picks: picksOf(base)}
	if err := b.plan(); err != nil {
		return nil, err
	}
	src := b.definition()
	prob, diags := bddl.ParseProblem("sample.bddl", []byte(src))
	if diags.HasErrors() {
		return nil, fmt.Errorf("transitions: sample definition of %s: %v", rule.Name, diags)
	}
	prog, err := predicates.Compile(prob, base, predicates.Options{})
	if err != nil {
		return nil, fmt.Errorf("transitions: sample definition of %s: %w", rule.Name, err)
	}
	b.prog = prog
	b.resolve()
	var eng *Engine
	if opts.Alone {
		eng, err = CompileOnly(prog, base, func(i int) bool { return i == rule.index(base) })
	} else {
		eng, err = Compile(prog, base)
	}
	if err != nil {
		return nil, err
	}
	res := &SampleResult{Rule: rule, Variant: opts.Variant, Definition: src, Program: prog,
		Container: b.id(b.container), Tool: b.id(b.tool), HeatSource: b.id(b.heat), Item: b.id(b.item)}
	for _, n := range b.objIn {
		res.Inputs = append(res.Inputs, b.id(n))
	}
	for _, n := range b.sysIn {
		res.InputSubstances = append(res.InputSubstances, b.id(n))
	}
	for _, names := range b.outs {
		var ids []ObjectID
		for _, n := range names {
			ids = append(ids, b.id(n))
		}
		res.Outputs = append(res.Outputs, ids)
	}
	for k := 0; k < b.steps; k++ {
		s := b.state(k)
		res.Steps = append(res.Steps, s)
		after := prog.NewState()
		if err := after.CopyFrom(s); err != nil {
			return nil, err
		}
		out := eng.Step(after)
		if k == b.steps-1 {
			res.After, res.Outcome = after, out.Clone()
			// What lands one step later (output states, places) is part
			// of the sample's outcome.
			if fl := eng.Flush(after); len(fl.Changes) > 0 {
				res.Outcome.Changes = append(res.Outcome.Changes, fl.Changes...)
				res.Deferred = true
			}
		} else {
			res.Early = append(res.Early, out.Clone().Firings...)
		}
	}
	return res, nil
}

// index finds the rule's index in Rules(base), -1 if it is not there.
func (r Rule) index(base *kb.Base) int {
	for i, x := range rulesOf(base) {
		if x.Family == r.Family && x.Name == r.Name {
			return i
		}
	}
	return -1
}

// Clone copies an Outcome out of the Engine's buffers.
func (o Outcome) Clone() Outcome {
	c := Outcome{Changes: slices.Clone(o.Changes)}
	for _, f := range o.Firings {
		f.Consumed = slices.Clone(f.Consumed)
		f.ConsumedSubstances = slices.Clone(f.ConsumedSubstances)
		f.ConsumedAnonymous = slices.Clone(f.ConsumedAnonymous)
		f.Produced = slices.Clone(f.Produced)
		c.Firings = append(c.Firings, f)
	}
	return c
}

// picks are the synsets a sample uses for equipment the rule leaves open,
// chosen once per knowledge base: the first leaf (by name) with the
// abilities needed.
type picks struct {
	fillable, heatableFillable, machine, heatSource, slicer, mixingTool, item kb.SynsetID
	extraSubstances                                                           []kb.SynsetID
	leaves                                                                    []kb.SynsetID
}

var picksCache sync.Map // *kb.Base → *picks

func picksOf(base *kb.Base) *picks {
	if p, ok := picksCache.Load(base); ok {
		return p.(*picks)
	}
	p := &picks{fillable: kb.NoSynset, heatableFillable: kb.NoSynset, machine: kb.NoSynset, heatSource: kb.NoSynset,
		slicer: kb.NoSynset, mixingTool: kb.NoSynset, item: kb.NoSynset}
	var leaves []kb.SynsetID
	for i := 0; i < base.NumSynsets(); i++ {
		id := kb.SynsetID(i)
		if base.IsLeaf(id) {
			leaves = append(leaves, id)
		}
	}
	slices.SortFunc(leaves, func(a, b kb.SynsetID) int { return strings.Compare(base.Name(a), base.Name(b)) })
	p.leaves = leaves
	washer, _ := base.SynsetOfCategory(washerCategory)
	dryer, _ := base.SynsetOfCategory(dryerCategory)
	hot, _ := base.SynsetOfCategory(hotTubCategory)
	first := func(dst *kb.SynsetID, ok bool, id kb.SynsetID) {
		if *dst == kb.NoSynset && ok {
			*dst = id
		}
	}
	for _, id := range leaves {
		if base.IsSubstance(id) {
			if base.Has(id, kb.Liquid) && len(p.extraSubstances) < 8 {
				p.extraSubstances = append(p.extraSubstances, id)
			}
			continue
		}
		fill := base.Has(id, kb.Fillable)
		_, isHeat := base.HeatSource(id)
		special := base.IsA(id, washer) || base.IsA(id, dryer) || base.IsA(id, hot)
		first(&p.fillable, fill && !base.Has(id, kb.Toggleable) && !isHeat, id)
		first(&p.heatableFillable, fill && base.Has(id, kb.Heatable) && !base.Has(id, kb.Toggleable) && !isHeat, id)
		first(&p.machine, fill && base.Has(id, kb.Toggleable) && !special && !isHeat, id)
		first(&p.heatSource, isHeat, id)
		first(&p.slicer, base.Has(id, kb.Slicer), id)
		first(&p.mixingTool, base.Has(id, kb.MixingTool), id)
		first(&p.item, base.Has(id, kb.Cloth), id)
	}
	// The container the rules name most (a pot, a cookie sheet) reads
	// better in a sample than the alphabetically first fillable synset.
	// Containers of recipes that make substances (pots) count most.
	uses := map[kb.SynsetID]int{}
	for _, r := range base.Rules() {
		w := 1
		if len(r.Outputs) > 0 && base.IsSubstance(r.Outputs[0].Synset) {
			w = 1000
		}
		for _, c := range r.Containers {
			if base.IsLeaf(c.Synset) && base.Has(c.Synset, kb.Fillable) && !base.Has(c.Synset, kb.Toggleable) {
				uses[c.Synset] += w
			}
		}
	}
	best := 0
	for _, id := range leaves {
		if n := uses[id]; n > best {
			p.fillable, best = id, n
			if base.Has(id, kb.Heatable) {
				p.heatableFillable = id
			}
		}
	}
	if p.item == kb.NoSynset {
		for _, id := range leaves {
			if base.Has(id, kb.RigidBody) && !base.Has(id, kb.Fillable) {
				p.item = id
				break
			}
		}
	}
	picksCache.Store(base, p)
	return p
}

// builder lays out one sample.
type builder struct {
	base  *kb.Base
	rule  Rule
	v     Variant
	rng   *rand.Rand
	picks *picks
	prog  *predicates.Program

	decl      []declared // :objects, in order
	container string
	heat      string
	tool      string
	item      string
	extra     string // the extra object or substance of ExtraInput
	objIn     []string
	objInK    []int // per object input instance: its input index
	sysIn     []string
	outs      [][]string
	steps     int
	machine   bool // the container is a machine (inside, toggled)
	ox, oy    float64
	heatParam kb.HeatSourceParams

	ids map[string]ObjectID
}

type declared struct {
	synset string
	names  []string
	future []bool
}

func (b *builder) declare(syn kb.SynsetID, future bool) string {
	name := b.base.Name(syn)
	for i := range b.decl {
		if b.decl[i].synset == name {
			inst := fmt.Sprintf("%s_%d", name, len(b.decl[i].names)+1)
			b.decl[i].names = append(b.decl[i].names, inst)
			b.decl[i].future = append(b.decl[i].future, future)
			return inst
		}
	}
	inst := name + "_1"
	b.decl = append(b.decl, declared{synset: name, names: []string{inst}, future: []bool{future}})
	return inst
}

func (b *builder) need(id kb.SynsetID, what string) error {
	if id == kb.NoSynset {
		return fmt.Errorf("transitions: sample of %s: the knowledge base has no %s", b.rule.Name, what)
	}
	return nil
}

func (b *builder) notApplicable(ok bool) error {
	if !ok {
		return ErrNotApplicable
	}
	return nil
}

// plan chooses the scene's instances and the number of steps.
func (b *builder) plan() error {
	r := &b.rule
	p := b.picks
	b.ox, b.oy = 0.02*b.rng.Float64(), 0.02*b.rng.Float64()
	b.steps = 1
	recipe := false
	var err error
	switch r.Family {
	case HeatCook:
		recipe = true
		cont := p.fillable
		if len(r.Containers) > 0 {
			cont = r.Containers[0].Synset
		}
		if b.v == WrongContainer {
			cont, err = b.other(r.Containers, p.fillable, kb.Fillable)
			if err != nil {
				return err
			}
		}
		if err := b.need(cont, "fillable container"); err != nil {
			return err
		}
		b.container = b.declare(cont, false)
		hs := p.heatSource
		if len(r.HeatSources) > 0 {
			hs = r.HeatSources[0].Synset
		}
		if err := b.need(hs, "heat source"); err != nil {
			return err
		}
		var isHeat bool
		if b.heatParam, isHeat = b.base.HeatSource(hs); !isHeat {
			b.heatParam, _ = b.base.ColdSource(hs)
		}
		b.heat = b.declare(hs, false)
		b.steps = max(r.Timesteps, 1) + 1 // a first step with the heat off
		switch b.v {
		case HeatOff:
			err = b.notApplicable(b.heatParam.RequiresToggledOn)
		case HeatOpen:
			err = b.notApplicable(b.heatParam.RequiresClosed)
		case TooFewSteps:
			err = b.notApplicable(b.steps > 2)
			b.steps--
		case ExtraInput:
			err = b.notApplicable(len(r.Outputs) > 0 && b.base.IsSubstance(r.Outputs[0].Synset))
		}
	case ToggleableMachine:
		recipe, b.machine = true, true
		m := p.machine
		if len(r.Machines) > 0 {
			m = r.Machines[0].Synset
		}
		if b.v == WrongContainer {
			m, err = b.other(r.Machines, p.machine, kb.Toggleable)
			if err != nil {
				return err
			}
		}
		if err := b.need(m, "machine"); err != nil {
			return err
		}
		b.container = b.declare(m, false)
		b.steps = 2
	case MixingStick:
		recipe = true
		if err := b.need(p.fillable, "fillable container"); err != nil {
			return err
		}
		if err := b.need(p.mixingTool, "mixing tool"); err != nil {
			return err
		}
		b.container = b.declare(p.fillable, false)
		b.tool = b.declare(p.mixingTool, false)
		b.steps = 2
		err = b.notApplicable(b.v != WrongContainer)
	case SubstanceCooking, SubstanceWaterCooking:
		recipe = true
		if err := b.need(p.heatableFillable, "heatable fillable container"); err != nil {
			return err
		}
		b.container = b.declare(p.heatableFillable, false)
		b.steps = 2 // cold, then hot
		err = b.notApplicable(b.v != WrongContainer && b.v != ExtraInput)
	case Washer, Dryer:
		if len(r.Machines) == 0 {
			return fmt.Errorf("transitions: sample of %s: the knowledge base maps no synset to the %s category", r.Name, r.Family)
		}
		if r.Family == Washer && r.Never {
			return ErrNeverFires
		}
		if err := b.need(p.item, "cloth or rigid object to wash"); err != nil {
			return err
		}
		b.machine = true
		b.container = b.declare(r.Machines[0].Synset, false)
		b.item = b.declare(p.item, false)
		b.steps = 2
		switch b.v {
		case NoSolvent:
			err = b.notApplicable(len(r.Solvents) > 0)
		case NoEdge, MissingInput, Positive:
		default:
			err = ErrNotApplicable
		}
		if r.Family == Dryer && b.v == MissingInput {
			err = ErrNotApplicable
		}
		for _, in := range r.Inputs {
			b.sysIn = append(b.sysIn, b.declare(in.Synset, false))
		}
		if len(r.Solvents) > 0 && b.v != NoSolvent {
			b.extra = b.declare(r.Solvents[0].Synset, false)
		}
		if err != nil {
			return err
		}
		return nil
	case Slicing, Dicing, Melting:
		if len(r.Inputs) != 1 || b.base.IsSubstance(r.Inputs[0].Synset) {
			return ErrNeverFires // the reference slices, dices and melts objects only
		}
		if err := b.need(p.fillable, "fillable container"); err != nil {
			return err
		}
		b.container = b.declare(p.fillable, false)
		if r.Family != Melting {
			if err := b.need(p.slicer, "slicer"); err != nil {
				return err
			}
			b.tool = b.declare(p.slicer, false)
		}
		b.steps = 2
		switch b.v {
		case Positive, MissingInput:
		case NotTouching:
			err = b.notApplicable(r.Family != Melting)
		case TooCold:
			err = b.notApplicable(r.Family == Melting)
		case InputStateWrong:
			err = b.notApplicable(len(r.InputStates) > 0)
		default:
			err = ErrNotApplicable
		}
	default:
		return fmt.Errorf("transitions: sample of %s: unknown family %q", r.Name, r.Family)
	}
	if err != nil {
		return err
	}
	if recipe {
		switch b.v {
		case NoEdge:
			err = b.notApplicable(r.Family == ToggleableMachine || r.Family == MixingStick)
		case NotTouching:
			err = b.notApplicable(r.Family == MixingStick)
		case NotHot:
			err = b.notApplicable(r.Family == SubstanceCooking || r.Family == SubstanceWaterCooking)
		case InputStateWrong:
			err = b.notApplicable(b.hasUnaryState())
		case NoSolvent, TooCold:
			err = ErrNotApplicable
		case HeatOff, HeatOpen, TooFewSteps:
			err = b.notApplicable(r.Family == HeatCook)
		case ExtraInput:
			err = b.notApplicable(r.Family != HeatCook || len(r.Outputs) > 0 && b.base.IsSubstance(r.Outputs[0].Synset))
		}
		if err != nil {
			return err
		}
	}
	// Inputs, then outputs (future), so outputs bind after inputs.
	for k, in := range r.Inputs {
		if b.base.IsSubstance(in.Synset) {
			b.sysIn = append(b.sysIn, b.declare(in.Synset, false))
			continue
		}
		for range in.Count {
			b.objIn = append(b.objIn, b.declare(in.Synset, false))
			b.objInK = append(b.objInK, k)
		}
	}
	if b.v == ExtraInput {
		if r.Family == MixingStick {
			for _, s := range p.extraSubstances {
				if !b.isInput(s) {
					b.extra = b.declare(s, false)
					break
				}
			}
		} else if p.item != kb.NoSynset && !b.isInput(p.item) {
			b.extra = b.declare(p.item, false)
		}
		if b.extra == "" {
			return ErrNotApplicable
		}
	}
	for _, out := range r.Outputs {
		var names []string
		n := out.Count
		if b.base.IsSubstance(out.Synset) {
			n = 1
		}
		for range n {
			names = append(names, b.declare(out.Synset, true))
		}
		b.outs = append(b.outs, names)
	}
	if r.Family == ToggleableMachine || r.Family == MixingStick {
		if g, ok := b.base.SynsetOfCategory(garbageSystem); ok && !b.isInput(g) {
			b.declare(g, true)
		}
	}
	return nil
}

func (b *builder) hasUnaryState() bool {
	for _, st := range b.rule.InputStates {
		if len(st.Args) == 1 && !b.base.IsSubstance(st.Args[0]) {
			return true
		}
	}
	return false
}

func (b *builder) isInput(s kb.SynsetID) bool {
	for _, in := range b.rule.Inputs {
		if in.Synset == s {
			return true
		}
	}
	return false
}

// other finds a leaf with the ability that none of allowed covers: the
// wrong container or machine.
func (b *builder) other(allowed []kb.SynsetCount, fallback kb.SynsetID, ability kb.Property) (kb.SynsetID, error) {
	if len(allowed) == 0 {
		return kb.NoSynset, ErrNotApplicable
	}
	washer, _ := b.base.SynsetOfCategory(washerCategory)
	dryer, _ := b.base.SynsetOfCategory(dryerCategory)
	for _, id := range b.picks.leaves {
		if b.base.IsSubstance(id) || !b.base.Has(id, kb.Fillable) || !b.base.Has(id, ability) {
			continue
		}
		if _, isHeat := b.base.HeatSource(id); isHeat || b.base.IsA(id, washer) || b.base.IsA(id, dryer) {
			continue
		}
		ok := true
		for _, a := range allowed {
			ok = ok && !b.base.IsA(id, a.Synset)
		}
		if ok {
			return id, nil
		}
	}
	_ = fallback
	return kb.NoSynset, ErrNotApplicable
}

// definition writes the sample activity: its objects, the future outputs,
// and a goal that holds once the rule's outputs exist with their states.
func (b *builder) definition() string {
	var s strings.Builder
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' {
			return r
		}
		return '_'
	}, strings.ToLower(b.rule.Name))
	fmt.Fprintf(&s, "(define (problem sample_%s_%s-0)\n    (:domain omnigibson)\n    (:objects\n", b.rule.Family, name)
	for _, d := range b.decl {
		fmt.Fprintf(&s, "        %s - %s\n", strings.Join(d.names, " "), d.synset)
	}
	s.WriteString("    )\n    (:init\n")
	for _, d := range b.decl {
		for i, n := range d.names {
			if d.future[i] {
				fmt.Fprintf(&s, "        (future %s)\n", n)
			}
		}
	}
	for _, n := range b.objIn {
		if b.machine {
			fmt.Fprintf(&s, "        (inside %s %s)\n", n, b.container)
		} else if b.container != "" && b.rule.Family != Slicing && b.rule.Family != Dicing && b.rule.Family != Melting {
			fmt.Fprintf(&s, "        (ontop %s %s)\n", n, b.container)
		}
	}
	s.WriteString("    )\n    (:goal\n        (and\n")
	goals := b.goals()
	if len(goals) == 0 {
		goals = []string{"(real " + b.container + ")"}
	}
	for _, g := range goals {
		fmt.Fprintf(&s, "            %s\n", g)
	}
	s.WriteString("        )\n    )\n)\n")
	return s.String()
}

func (b *builder) goals() []string {
	r := &b.rule
	var out []string
	switch r.Family {
	case Washer:
		water, _ := b.base.SynsetOfCategory(waterSystem)
		for _, n := range b.sysIn {
			out = append(out, fmt.Sprintf("(not (contains %s %s))", b.container, n))
			if b.synsetOfName(n) != water { // the washer wets its load again
				out = append(out, fmt.Sprintf("(not (covered %s %s))", b.item, n))
			}
		}
		return out
	case Dryer:
		for _, n := range b.sysIn {
			out = append(out, fmt.Sprintf("(not (saturated %s %s))", b.item, n))
		}
		return out
	}
	for i, o := range r.Outputs {
		for _, n := range b.outs[i] {
			if b.base.IsSubstance(o.Synset) {
				out = append(out, fmt.Sprintf("(contains %s %s)", b.container, n))
				continue
			}
			out = append(out, fmt.Sprintf("(real %s)", n))
			for _, st := range r.OutputStates {
				if len(st.Args) == 1 && st.Args[0] == o.Synset {
					lit := fmt.Sprintf("(%s %s)", st.Predicate, n)
					if !st.Value {
						lit = "(not " + lit + ")"
					}
					out = append(out, lit)
				}
			}
		}
	}
	return out
}

func (b *builder) resolve() {
	b.ids = map[string]ObjectID{}
	for _, d := range b.decl {
		for _, n := range d.names {
			id, _ := b.prog.ObjectID(n)
			b.ids[n] = id
		}
	}
}

func (b *builder) id(name string) ObjectID {
	if name == "" {
		return NoObject
	}
	if id, ok := b.ids[name]; ok {
		return id
	}
	return NoObject
}

func box(x0, y0, z0, x1, y1, z1 float64) predicates.Box {
	return predicates.Box{Min: [3]float64{x0, y0, z0}, Max: [3]float64{x1, y1, z1}}
}

// state builds the recorded state of step k (rules off).
func (b *builder) state(k int) *predicates.State {
	r := &b.rule
	s := b.prog.NewState()
	s.SetClosedWorld(true)
	for _, d := range b.decl {
		for i, n := range d.names {
			_ = s.SetExists(b.id(n), !d.future[i])
		}
	}
	last := k == b.steps-1
	fact := func(pred predicates.PredID, a, c ObjectID, v bool) { _ = s.SetFact(pred, a, c, predicates.TruthOf(v)) }
	ox, oy := b.ox, b.oy
	cont := b.id(b.container)
	contTop := 1.0
	if b.machine {
		_ = s.SetAABB(cont, box(ox, oy, 0.2, ox+0.6, oy+0.6, 1.0))
	} else {
		_ = s.SetAABB(cont, box(ox, oy, 0.9, ox+0.4, oy+0.4, contTop))
	}
	// The trigger: at the last step (rules off: nothing else changes).
	trigger := last
	switch r.Family {
	case ToggleableMachine, Washer, Dryer:
		on := trigger || b.v == NoEdge
		fact(pToggledOn, cont, NoObject, on)
		fact(pOpen, cont, NoObject, false)
	case MixingStick:
		tool := b.id(b.tool)
		if (trigger || b.v == NoEdge) && b.v != NotTouching {
			_ = s.SetAABB(tool, box(ox+0.3, oy+0.3, 0.95, ox+0.32, oy+0.32, 1.2))
		} else {
			_ = s.SetAABB(tool, box(ox+2, oy+2, 0.95, ox+2.02, oy+2.02, 1.2))
		}
	case HeatCook:
		h := b.id(b.heat)
		hb := box(ox-0.3, oy-0.3, 0.0, ox+0.7, oy+0.7, 0.9)
		if b.heatParam.RequiresInside {
			hb = box(ox-0.5, oy-0.5, 0.5, ox+1.5, oy+1.5, 1.6)
		}
		if k == 0 {
			// The first step: the container not yet at the source (a
			// source that needs no switch, a freezer, is always on).
			hb.Min[0] += 10
			hb.Max[0] += 10
		}
		_ = s.SetAABB(h, hb)
		fact(pToggledOn, h, NoObject, k > 0 && b.v != HeatOff)
		fact(pOpen, h, NoObject, b.v == HeatOpen)
	case SubstanceCooking, SubstanceWaterCooking:
		fact(pHot, cont, NoObject, trigger && b.v != NotHot)
	}
	// NoEdge: the inputs arrive only at the last step, after the trigger.
	present := b.v != NoEdge || last
	// Object inputs.
	placed := map[int]predicates.Box{} // per input instance
	kids := map[int]int{}              // per parent input: children placed
	rootBox := box(ox+0.1, oy+0.1, contTop, ox+0.3, oy+0.3, contTop+0.1)
	roots := 0
	for i, n := range b.objIn {
		id := b.id(n)
		if b.v == MissingInput && i == 0 {
			_ = s.SetExists(id, false)
		}
		k := b.objInK[i]
		parent := b.parentOf(k)
		var bx predicates.Box
		switch {
		case r.Family == Slicing || r.Family == Dicing || r.Family == Melting:
			bx = box(ox+0.1, oy+0.1, 0.92, ox+0.2, oy+0.2, 0.98)
		case parent >= 0:
			pb, ok := placed[b.firstOf(parent)]
			if !ok {
				pb = rootBox
			}
			j := kids[parent]
			kids[parent]++
			w := (pb.Max[0] - pb.Min[0]) / 3
			x := pb.Min[0] + float64(j%3)*w
			y := pb.Min[1] + float64((j/3)%3)*w
			bx = box(x+0.1*w, y+0.1*w, pb.Max[2], x+0.9*w, y+0.9*w, pb.Max[2]+0.3*w)
		default:
			slot := roots
			roots++
			size := 0.05
			if b.hasChildren(k) {
				size = 0.2
			}
			x := ox + 0.02 + float64(slot%6)*0.063 + 0.005*b.rng.Float64()
			y := oy + 0.02 + float64(slot/6)*0.063 + 0.005*b.rng.Float64()
			if b.hasChildren(k) && !b.machine {
				bx = rootBox
				break
			}
			if b.machine {
				bx = box(x, y, 0.3, x+size, y+size, 0.3+size)
			} else {
				bx = box(x, y, contTop, x+size, y+size, contTop+size/2)
			}
		}
		if !present || b.v == NotInContainer {
			bx.Min[0] += 5
			bx.Max[0] += 5
		}
		placed[i] = bx
		_ = s.SetAABB(id, bx)
		for _, st := range r.InputStates {
			if len(st.Args) == 0 || st.Args[0] != r.Inputs[k].Synset {
				continue
			}
			pred, ok := predicates.PredByName(st.Predicate)
			if !ok {
				continue
			}
			v := st.Value
			if b.v == InputStateWrong && len(st.Args) == 1 {
				v = !v
			}
			switch {
			case len(st.Args) == 1:
				fact(pred, id, NoObject, v)
			case b.base.IsSubstance(st.Args[1]):
				for _, sn := range b.sysIn {
					if b.synsetOfName(sn) == st.Args[1] {
						fact(pred, id, b.id(sn), v)
					}
				}
			}
		}
	}
	// Slicing, dicing, melting: the trigger.
	switch r.Family {
	case Slicing, Dicing:
		obj := b.id(b.objIn[0])
		ob := placed[0]
		tool := b.id(b.tool)
		if trigger && b.v != NotTouching {
			_ = s.SetAABB(tool, box(ob.Min[0]+0.02, ob.Min[1]+0.04, ob.Max[2], ob.Min[0]+0.2, ob.Min[1]+0.06, ob.Max[2]+0.01))
		} else {
			_ = s.SetAABB(tool, box(ob.Min[0]+3, ob.Min[1], ob.Max[2]+1, ob.Min[0]+3.2, ob.Min[1]+0.02, ob.Max[2]+1.01))
		}
		_ = obj
	case Melting:
		t := 23.0
		if trigger {
			t = MeltingTemperature + 20
			if b.v == TooCold {
				t = MeltingTemperature - 1
			}
		}
		_ = s.SetMaxTemperature(b.id(b.objIn[0]), t)
	}
	// Substances in the container.
	for i, sn := range b.sysIn {
		sub := b.id(sn)
		in := present && b.v != NotInContainer && !(b.v == MissingInput && i == 0 && len(b.objIn) == 0)
		switch r.Family {
		case Washer:
			item := b.id(b.item)
			_ = s.SetAABB(item, box(ox+0.2, oy+0.2, 0.3, ox+0.4, oy+0.4, 0.4))
			fact(pCovered, item, sub, present && b.v != MissingInput)
			fact(pContains, cont, sub, present && b.v != MissingInput)
		case Dryer:
			item := b.id(b.item)
			_ = s.SetAABB(item, box(ox+0.2, oy+0.2, 0.3, ox+0.4, oy+0.4, 0.4))
			fact(pSaturated, item, sub, present)
		default:
			fact(pContains, cont, sub, in)
			fact(pFilled, cont, sub, in)
		}
	}
	if b.extra != "" {
		x := b.id(b.extra)
		switch {
		case r.Family == Washer:
			fact(pContains, cont, x, true)
		case b.prog.IsSubstance(x):
			fact(pContains, cont, x, last)
		default:
			if b.machine {
				_ = s.SetAABB(x, box(ox+0.45, oy+0.45, 0.3, ox+0.5, oy+0.5, 0.35))
			} else {
				_ = s.SetAABB(x, box(ox+0.33, oy+0.33, contTop, ox+0.38, oy+0.38, contTop+0.03))
			}
		}
	}
	return s
}

func (b *builder) synsetOfName(inst string) kb.SynsetID {
	for _, d := range b.decl {
		if slices.Contains(d.names, inst) {
			id, _ := b.base.Lookup(d.synset)
			return id
		}
	}
	return kb.NoSynset
}

// parentOf is the input that input k stands on by a binary object state.
func (b *builder) parentOf(k int) int {
	for _, st := range b.rule.InputStates {
		if len(st.Args) == 2 && !b.base.IsSubstance(st.Args[1]) && st.Args[0] == b.rule.Inputs[k].Synset {
			for j, in := range b.rule.Inputs {
				if in.Synset == st.Args[1] {
					return j
				}
			}
		}
	}
	return -1
}

func (b *builder) hasChildren(k int) bool {
	for j := range b.rule.Inputs {
		if j != k && b.parentOf(j) == k {
			return true
		}
	}
	return false
}

// firstOf is the index in objIn of input k's first instance.
func (b *builder) firstOf(k int) int {
	return slices.Index(b.objInK, k)
}
