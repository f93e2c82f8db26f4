package transitions

import (
	"slices"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// The predicates rules read and write, resolved once.
var (
	pTouching  = mustPred("touching")
	pOntop     = mustPred("ontop")
	pInside    = mustPred("inside")
	pCooked    = mustPred("cooked")
	pToggledOn = mustPred("toggled_on")
	pOpen      = mustPred("open")
	pHot       = mustPred("hot")
	pBurnt     = mustPred("burnt")
	pFrozen    = mustPred("frozen")
	pOnFire    = mustPred("on_fire")
	pContains  = mustPred("contains")
	pFilled    = mustPred("filled")
	pCovered   = mustPred("covered")
	pSaturated = mustPred("saturated")
	pNextto    = mustPred("nextto")
	pUnder     = mustPred("under")
)

func mustPred(name string) predicates.PredID {
	id, ok := predicates.PredByName(name)
	if !ok {
		panic("transitions: predicate " + name + " is not registered")
	}
	return id
}

// compiled is the immutable part of an Engine: the activity's rules with
// every synset resolved to candidate instances.
type compiled struct {
	prog  *predicates.Program
	base  *kb.Base
	rules []Rule
	n     int
	syn   []kb.SynsetID // per object
	subst []bool        // per object: a substance
	names []string

	objList, substList []ObjectID // the object and the substance instances
	movable            []ObjectID // objList without the fixed-base objects
	fixed              []bool     // per object: fixed-base (Options.FixedBase)
	opts               Options

	active []int // rule indexes that can apply, step order

	cook          []*recipe // heat_cook
	cookContainer []ObjectID
	heatSources   []heatSource
	substCook     []*recipe // substance_cooking, then substance_watercooking
	substCont     []ObjectID
	machine       []*recipe
	machines      []ObjectID
	mix           []*recipe
	mixContainers []ObjectID
	mixTools      []ObjectID

	washers   []ObjectID
	washRules []washRule
	dryers    []ObjectID
	dryerRule int
	water     []ObjectID // water substance instances

	slicers    []ObjectID
	sliceables []ObjectID  // every instance with the sliceable ability (SlicerActive's touch test)
	slices     []unaryRule // sliceable objects and their rules
	dices      []diceRule
	melts      []unaryRule
	garbageOut output
	anonDice   []anonDice  // dicing of the anonymous parts slicing can make
	anonSlices []unaryRule // slicing of anonymous objects recipes make
	// made are the synsets (and their ancestors) that rules make from the
	// activity's objects and that no declared instance is of.
	made map[kb.SynsetID]bool
}

// madeBy marks the outputs of rule r (and their ancestors) that no
// instance stands for as made.
func (c *compiled) madeBy(r *Rule, reach map[kb.SynsetID]bool) {
	for _, o := range r.Outputs {
		for _, a := range append([]kb.SynsetID{o.Synset}, c.base.Ancestors(o.Synset)...) {
			if !reach[a] {
				reach[a], c.made[a] = true, true
			}
		}
	}
}

func isRecipeFamily(f Family) bool {
	switch f {
	case HeatCook, ToggleableMachine, MixingStick, SubstanceCooking, SubstanceWaterCooking:
		return true
	}
	return false
}

// heatSource is an instance with the heatSource ability.
type heatSource struct {
	obj    ObjectID
	syn    kb.SynsetID
	params kb.HeatSourceParams
}

// recipe is one recipe rule resolved against the activity.
type recipe struct {
	index  int
	rule   *Rule
	objIn  []input
	sysIn  []sysInput
	binObj []binState
	// okContainer[c] is true for the instances the recipe may use as its
	// container or machine.
	okContainer []bool
	heat        []kb.SynsetID // allowed heat-source synsets; empty: any
	outObj      []output
	outSys      []output
	timesteps   int
	multi       bool // CookingObjectRule: instances counted, trees of inputs
	relaxSys    bool // input systems need not be in the container
	ignoreSys   bool // other systems in the container do not matter
	ignoreObj   bool // other objects in the container do not matter
	garbage     bool
	root        int // multi with a tree: the root input
}

type input struct {
	syn     kb.SynsetID
	count   int
	cands   []ObjectID
	unary   []lit
	sysLits []sysLit
	parent  int // with binary object states: the input it sits on, -1 for none
}

type lit struct {
	pred predicates.PredID
	val  predicates.Truth
}

type sysLit struct {
	pred predicates.PredID
	subs []ObjectID
	val  bool
}

type sysInput struct {
	syn   kb.SynsetID
	insts []ObjectID
}

type binState struct {
	child, parent int
	pred          predicates.PredID
	val           predicates.Truth
}

type output struct {
	syn    kb.SynsetID
	name   string
	count  int
	subst  bool
	anon   bool       // made anonymous when no instance is free (anonymous.go)
	cands  []ObjectID // instances it may bind to, :objects order
	states []outState
}

type outState struct {
	pred predicates.PredID
	val  predicates.Truth
	subs []ObjectID // the substance of a binary state
}

type unaryRule struct {
	obj   ObjectID
	index int
	out   []output    // one output
	syn   kb.SynsetID // anonSlices: the input synset
}

type diceRule struct {
	obj             ObjectID
	raw, cooked     int // rule indexes, -1 when absent
	rawOut, cookOut []output
}

type washRule struct {
	index    int
	solute   []ObjectID
	solvents []ObjectID
	never    bool
}

func compile(prog *predicates.Program, base *kb.Base, keep func(int) bool, opts Options) *compiled {
	c := &compiled{prog: prog, base: base, n: prog.NumObjects(), dryerRule: -1, opts: opts}
	c.syn = make([]kb.SynsetID, c.n)
	c.subst = make([]bool, c.n)
	c.names = make([]string, c.n)
	for i := range c.n {
		id := ObjectID(i)
		c.names[i] = prog.Name(id)
		c.syn[i] = kb.NoSynset
		if base != nil {
			if s, ok := base.Lookup(prog.Synset(id)); ok {
				c.syn[i] = s
			}
		}
		c.subst[i] = prog.IsSubstance(id)
		if c.subst[i] {
			c.substList = append(c.substList, id)
		} else {
			c.objList = append(c.objList, id)
		}
	}
	c.fixed = fixedBase(prog, base, c.syn, opts.FixedBase)
	for _, o := range c.objList {
		if !c.fixed[o] {
			c.movable = append(c.movable, o)
		}
	}
	if base == nil {
		return c
	}
	c.rules = rulesOf(base)
	c.equipment()
	// The synsets an instance can stand for: its own and its ancestors.
	// A rule with an input outside this set cannot apply.
	reach := map[kb.SynsetID]bool{}
	for i := range c.n {
		if s := c.syn[i]; s != kb.NoSynset && !reach[s] {
			reach[s] = true
			for _, a := range base.Ancestors(s) {
				reach[a] = true
			}
		}
	}
	// A fixed point: a recipe whose outputs no declared instance stands
	// for still makes them (as anonymous objects, anonymous.go), so the
	// rules that take them as inputs can apply too (SEMANTICS.md §3.4:
	// the reference creates any category a rule outputs).
	added, diced := make([]bool, len(c.rules)), make([]bool, len(c.rules))
	c.made = map[kb.SynsetID]bool{}
	for changed := true; changed; {
		changed = false
		for i := range c.rules {
			r := &c.rules[i]
			if added[i] || (keep != nil && !keep(i)) || !inputsReachable(r, reach) {
				continue
			}
			ok := false
			switch r.Family {
			case HeatCook, ToggleableMachine, MixingStick, SubstanceCooking, SubstanceWaterCooking:
				ok = c.addRecipe(i, r)
			case Washer:
				ok = c.addWasher(i, r)
			case Slicing, Melting:
				ok = c.addUnary(i, r)
			case Dicing:
				ok = c.addDice(i, r)
			case Dryer:
				if len(c.dryers) > 0 {
					c.dryerRule, ok = i, true
				}
			}
			if r.Family == Slicing && len(c.slicers) > 0 && len(r.Inputs) == 1 && len(r.Outputs) == 1 && c.made[r.Inputs[0].Synset] {
				// Slicing an anonymous object (anonymous.go slicingAnon).
				c.anonSlices = append(c.anonSlices, unaryRule{obj: NoObject, index: i,
					out: []output{c.output(r.Outputs[0], r.OutputStates)}, syn: r.Inputs[0].Synset})
				ok = true
			}
			if !ok && r.Family == Dicing && len(c.slicers) > 0 && len(r.Inputs) == 1 && c.made[r.Inputs[0].Synset] {
				// Dicing an anonymous part (prepareAnonymous adds the rule).
				ok = !diced[i]
				diced[i] = true
				if ok {
					changed = true
					c.madeBy(r, reach)
				}
				continue
			}
			if !ok {
				continue
			}
			added[i], changed = true, true
			c.active = append(c.active, i)
			if isRecipeFamily(r.Family) || r.Family == Slicing || r.Family == Dicing || r.Family == Melting {
				c.madeBy(r, reach)
			}
		}
	}
	slices.Sort(c.active)
	for _, l := range [][]*recipe{c.cook, c.machine, c.mix, c.substCook} {
		slices.SortStableFunc(l, func(a, b *recipe) int { return a.index - b.index })
	}
	if len(c.slices) == 0 && len(c.dices) == 0 && len(c.anonSlices) == 0 {
		c.slicers = nil
	}
	if keep == nil {
		c.prepareAnonymous()
	}
	// The machine and mixing-tool rules, with their garbage fallback, are
	// active whenever their candidates exist, whatever recipes compile
	// (TransitionRuleAPI.refresh_rules: a rule is active when every
	// candidate filter matches an object).
	if len(c.mixTools) == 0 {
		c.mixContainers = nil
	}
	if len(c.cook) == 0 {
		c.heatSources, c.cookContainer = nil, nil
	}
	if len(c.substCook) == 0 {
		c.substCont = nil
	}
	if len(c.washers) > 0 && len(base.RulesOfKind(kb.RuleWasher)) > 0 {
		// Substances the cleaning conditions do not list are always
		// removed (B §4.2).
		listed := map[ObjectID]bool{}
		for _, w := range c.washRules {
			for _, s := range w.solute {
				listed[s] = true
			}
		}
		var rest []ObjectID
		for _, s := range c.substList {
			if !listed[s] && c.syn[s] != kb.NoSynset {
				rest = append(rest, s)
			}
		}
		if len(rest) > 0 {
			c.washRules = append(c.washRules, washRule{index: -1, solute: rest})
		}
	}
	if len(c.washRules) == 0 {
		c.washers = nil
	}
	if g, ok := c.lookupSystem(garbageSystem); ok {
		c.garbageOut = c.output(kb.SynsetCount{Synset: g, Name: base.Name(g), Count: 1}, nil)
	} else {
		c.garbageOut = output{syn: kb.NoSynset, name: garbageSystem, count: 1, subst: true}
	}
	return c
}

// inputsReachable reports whether every input of r is a synset some
// instance of the activity can stand for.
func inputsReachable(r *Rule, reach map[kb.SynsetID]bool) bool {
	for _, in := range r.Inputs {
		if !reach[in.Synset] {
			return false
		}
	}
	return true
}

// lookupSystem finds the synset of a particle system by category, else by
// the usual synset name.
func (c *compiled) lookupSystem(system string) (kb.SynsetID, bool) {
	if s, ok := c.base.SynsetOfCategory(system); ok {
		return s, true
	}
	return c.base.Lookup(system + ".n.01")
}

func (c *compiled) has(i int, p kb.Property) bool {
	return c.syn[i] != kb.NoSynset && c.base.Has(c.syn[i], p)
}

// isCategory reports whether instance i is of the synset mapped to a
// simulator category (or a descendant).
func (c *compiled) isCategory(i int, category string) bool {
	s, ok := c.base.SynsetOfCategory(category)
	return ok && c.syn[i] != kb.NoSynset && c.base.IsA(c.syn[i], s)
}

// fixedBase decides which instances are fixed-base: the overrides by
// name, else the scene objects: instances an inroom literal of :init
// places, and instances of synsets with the sceneObject property (sinks,
// ovens, dishwashers: furniture the scene files load with a fixed base).
func fixedBase(prog *predicates.Program, base *kb.Base, syn []kb.SynsetID, over map[string]bool) []bool {
	fixed := make([]bool, prog.NumObjects())
	if base != nil {
		for i, s := range syn {
			if s != kb.NoSynset && base.Has(s, kb.SceneObject) {
				fixed[i] = true
			}
		}
	}
	if pr := prog.Problem(); pr != nil {
		for _, f := range pr.Init {
			a, ok := f.(*bddl.Atom)
			if !ok || bddl.Fold(a.Pred.Name) != "inroom" || len(a.Args) != 2 {
				continue
			}
			if id, ok := prog.ObjectID(a.Args[0].Name); ok && int(id) < len(fixed) {
				fixed[id] = true
			}
		}
	}
	for name, v := range over {
		if id, ok := prog.ObjectID(name); ok && int(id) < len(fixed) {
			fixed[id] = v
		}
	}
	return fixed
}

// equipment finds the candidate containers, machines, tools and heat
// sources among the activity's objects (SEMANTICS.md B §4.3, §4.4).
func (c *compiled) equipment() {
	for i := range c.n {
		if c.subst[i] || c.syn[i] == kb.NoSynset {
			continue
		}
		id := ObjectID(i)
		washer, dryer := c.isCategory(i, washerCategory), c.isCategory(i, dryerCategory)
		// RecipeRule.candidate_filters: fillable and not fixed-base.
		if c.has(i, kb.Fillable) && !c.fixed[i] {
			c.cookContainer = append(c.cookContainer, id)
			c.mixContainers = append(c.mixContainers, id)
			// CookingPhysicalParticleRule.candidate_filters: and heatable.
			if c.has(i, kb.Heatable) {
				c.substCont = append(c.substCont, id)
			}
			// ToggleableMachineRule.candidate_filters: and toggleable, and
			// none of the categories other rules handle or that heat.
			if c.has(i, kb.Toggleable) && !washer && !dryer && !c.isCategory(i, hotTubCategory) &&
				!c.isCategory(i, ovenCategory) && !c.isCategory(i, microwaveCategory) {
				c.machines = append(c.machines, id)
			}
		}
		if c.has(i, kb.Sliceable) {
			c.sliceables = append(c.sliceables, id)
		}
		// Heat sinks (a deep freeze) are heat sources of heat_cook
		// recipes too: the reference's HeatSourceOrSink covers both.
		if hp, ok := c.base.HeatSource(c.syn[i]); ok {
			c.heatSources = append(c.heatSources, heatSource{obj: id, syn: c.syn[i], params: hp})
		} else if hp, ok := c.base.ColdSource(c.syn[i]); ok {
			c.heatSources = append(c.heatSources, heatSource{obj: id, syn: c.syn[i], params: hp})
		}
		if c.has(i, kb.MixingTool) {
			c.mixTools = append(c.mixTools, id)
		}
		if c.has(i, kb.Slicer) {
			c.slicers = append(c.slicers, id)
		}
		if washer {
			c.washers = append(c.washers, id)
		}
		if dryer {
			c.dryers = append(c.dryers, id)
		}
	}
	if w, ok := c.lookupSystem(waterSystem); ok {
		c.water = c.substancesOf(w)
	}
}

// objectsOf lists the existing-or-not object instances whose synset is s
// or a descendant: the instances that can be an input of synset s.
func (c *compiled) objectsOf(s kb.SynsetID) []ObjectID {
	var out []ObjectID
	for i := range c.n {
		if !c.subst[i] && c.syn[i] != kb.NoSynset && c.base.IsA(c.syn[i], s) {
			out = append(out, ObjectID(i))
		}
	}
	return out
}

// substancesOf lists the substance instances of synset s (or below).
func (c *compiled) substancesOf(s kb.SynsetID) []ObjectID {
	var out []ObjectID
	for i := range c.n {
		if c.subst[i] && c.syn[i] != kb.NoSynset && c.base.IsA(c.syn[i], s) {
			out = append(out, ObjectID(i))
		}
	}
	return out
}

// output resolves an output synset: the instances it may bind to are
// those whose synset is it or an ancestor (SEMANTICS.md §3.4).
func (c *compiled) output(sc kb.SynsetCount, states []kb.StateLiteral) output {
	o := output{syn: sc.Synset, name: sc.Name, count: sc.Count, subst: c.base.IsSubstance(sc.Synset)}
	for i := range c.n {
		if c.subst[i] == o.subst && c.syn[i] != kb.NoSynset && c.base.IsA(sc.Synset, c.syn[i]) {
			o.cands = append(o.cands, ObjectID(i))
		}
	}
	for _, st := range states {
		if len(st.Args) == 0 || st.Args[0] != sc.Synset {
			continue
		}
		pred, ok := predicates.PredByName(st.Predicate)
		if !ok {
			continue
		}
		os := outState{pred: pred, val: predicates.TruthOf(st.Value)}
		if len(st.Args) == 2 {
			if !c.base.IsSubstance(st.Args[1]) {
				continue // binary object states are inputs only (B §4.2)
			}
			os.subs = c.substancesOf(st.Args[1])
			if len(os.subs) == 0 {
				continue
			}
		}
		o.states = append(o.states, os)
	}
	return o
}

// addRecipe resolves a recipe rule; false when it cannot apply to the
// activity (an input, container, machine or heat source it needs is not
// declared).
func (c *compiled) addRecipe(index int, r *Rule) bool {
	rc := &recipe{index: index, rule: r, timesteps: max(r.Timesteps, 1), root: -1}
	objOut := len(r.Outputs) > 0 && !c.base.IsSubstance(r.Outputs[0].Synset)
	switch r.Family {
	case HeatCook:
		if objOut {
			rc.multi, rc.relaxSys, rc.ignoreSys, rc.ignoreObj = true, true, true, true
		}
	case ToggleableMachine:
		rc.garbage = true
	case MixingStick:
		rc.ignoreObj, rc.garbage = true, true
	case SubstanceCooking, SubstanceWaterCooking:
		rc.ignoreSys, rc.ignoreObj = true, true
	}
	inputOf := map[kb.SynsetID]int{}
	for _, in := range r.Inputs {
		if c.base.IsSubstance(in.Synset) {
			insts := c.substancesOf(in.Synset)
			if len(insts) == 0 && !c.made[in.Synset] {
				return false
			}
			rc.sysIn = append(rc.sysIn, sysInput{syn: in.Synset, insts: insts})
			continue
		}
		cands := c.objectsOf(in.Synset)
		if len(cands) < in.Count && !c.made[in.Synset] {
			return false
		}
		inputOf[in.Synset] = len(rc.objIn)
		rc.objIn = append(rc.objIn, input{syn: in.Synset, count: in.Count, cands: cands, parent: -1})
	}
	for _, st := range r.InputStates {
		pred, ok := predicates.PredByName(st.Predicate)
		if !ok || len(st.Args) == 0 {
			return false
		}
		k, isObj := inputOf[st.Args[0]]
		if !isObj {
			continue // a state of a substance input: not checked by the reference either
		}
		val := predicates.TruthOf(st.Value)
		switch {
		case len(st.Args) == 1:
			rc.objIn[k].unary = append(rc.objIn[k].unary, lit{pred: pred, val: val})
		case c.base.IsSubstance(st.Args[1]):
			subs := c.substancesOf(st.Args[1])
			if len(subs) == 0 && st.Value {
				return false // needs a substance the activity does not have
			}
			if len(subs) > 0 {
				rc.objIn[k].sysLits = append(rc.objIn[k].sysLits, sysLit{pred: pred, subs: subs, val: st.Value})
			}
		default:
			p, ok := inputOf[st.Args[1]]
			if !ok {
				return false
			}
			rc.binObj = append(rc.binObj, binState{child: k, parent: p, pred: pred, val: val})
			rc.objIn[k].parent = p
		}
	}
	if rc.multi && len(rc.binObj) > 0 {
		for k := range rc.objIn {
			if rc.objIn[k].parent < 0 {
				if rc.root >= 0 {
					rc.root = -2 // several roots: not a tree, count without one
				} else {
					rc.root = k
				}
			}
		}
		if rc.root < 0 || rc.objIn[rc.root].count != 1 {
			rc.root = -1
		}
	}
	// Equipment.
	var pool []ObjectID
	var allowed []kb.SynsetCount
	switch r.Family {
	case ToggleableMachine:
		pool, allowed = c.machines, r.Machines
	case SubstanceCooking, SubstanceWaterCooking:
		pool = c.substCont
	default:
		pool, allowed = c.cookContainer, r.Containers
	}
	rc.okContainer = make([]bool, c.n)
	anyContainer := false
	for _, id := range pool {
		ok := len(allowed) == 0
		for _, a := range allowed {
			ok = ok || c.base.IsA(c.syn[id], a.Synset)
		}
		if ok {
			rc.okContainer[id], anyContainer = true, true
		}
	}
	if !anyContainer {
		return false
	}
	if r.Family == HeatCook {
		if len(c.heatSources) == 0 {
			return false
		}
		found := len(r.HeatSources) == 0
		for _, h := range r.HeatSources {
			rc.heat = append(rc.heat, h.Synset)
			for _, hs := range c.heatSources {
				found = found || c.base.IsA(hs.syn, h.Synset)
			}
		}
		if !found {
			return false
		}
	}
	for _, o := range r.Outputs {
		out := c.output(o, r.OutputStates)
		if out.subst {
			rc.outSys = append(rc.outSys, out)
		} else {
			rc.outObj = append(rc.outObj, out)
		}
	}
	switch r.Family {
	case HeatCook:
		c.cook = append(c.cook, rc)
	case ToggleableMachine:
		c.machine = append(c.machine, rc)
	case MixingStick:
		if len(c.mixTools) == 0 {
			return false
		}
		c.mix = append(c.mix, rc)
	default:
		c.substCook = append(c.substCook, rc)
	}
	return true
}

func (c *compiled) addWasher(index int, r *Rule) bool {
	if len(c.washers) == 0 || len(r.Inputs) == 0 {
		return false
	}
	w := washRule{index: index, solute: c.substancesOf(r.Inputs[0].Synset), never: r.Never}
	if len(w.solute) == 0 {
		return false
	}
	for _, s := range r.Solvents {
		w.solvents = append(w.solvents, c.substancesOf(s.Synset)...)
	}
	if len(r.Solvents) > 0 && len(w.solvents) == 0 {
		w.never = true // no solvent can be present in this activity
	}
	c.washRules = append(c.washRules, w)
	return true
}

// addUnary resolves a slicing or melting rule for each declared instance
// of its input.
func (c *compiled) addUnary(index int, r *Rule) bool {
	if len(r.Inputs) != 1 || len(r.Outputs) != 1 {
		return false
	}
	if r.Family == Slicing && len(c.slicers) == 0 {
		return false
	}
	objs := c.objectsOf(r.Inputs[0].Synset)
	if len(objs) == 0 {
		return false
	}
	out := []output{c.output(r.Outputs[0], r.OutputStates)}
	for _, o := range objs {
		u := unaryRule{obj: o, index: index, out: out}
		if r.Family == Slicing {
			c.slices = append(c.slices, u)
		} else {
			c.melts = append(c.melts, u)
		}
	}
	return true
}

// addDice resolves a dicing rule; the raw and cooked rules of one synset
// share an entry per instance.
func (c *compiled) addDice(index int, r *Rule) bool {
	if len(r.Inputs) != 1 || len(r.Outputs) != 1 || len(c.slicers) == 0 {
		return false
	}
	objs := c.objectsOf(r.Inputs[0].Synset)
	if len(objs) == 0 {
		return false
	}
	cooked := len(r.InputStates) == 1 && r.InputStates[0].Value
	out := []output{c.output(r.Outputs[0], r.OutputStates)}
	for _, o := range objs {
		k := slices.IndexFunc(c.dices, func(d diceRule) bool { return d.obj == o })
		if k < 0 {
			c.dices = append(c.dices, diceRule{obj: o, raw: -1, cooked: -1})
			k = len(c.dices) - 1
		}
		if cooked {
			c.dices[k].cooked, c.dices[k].cookOut = index, out
		} else {
			c.dices[k].raw, c.dices[k].rawOut = index, out
		}
	}
	return true
}
