package activities

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

// Goal reachability: a future object exists only once a transition rule
// (or a particle source, for substances) creates it. The check searches
// the knowledge base's rule graph forwards from the synsets present
// initially, over the rules that can lead to the synsets the goal needs.
//
// It is deliberately permissive, so that it only reports goals that can
// never be reached: rule input states are assumed reachable (cooking,
// slicing ...), counts are ignored, a present instance satisfies a rule
// input when either synset is a descendant of the other (a declared
// food.n.02 may be sampled as any food), and fixed equipment (an oven, a
// stove) may also come from a scene that can host the activity.

// ruleGraph indexes a knowledge base's transition rules for the search.
type ruleGraph struct {
	rules     []kb.Rule
	producers map[kb.SynsetID][]int // output synset → rules, in rule order
	outputs   []kb.SynsetID         // every synset some rule outputs, sorted
}

func (bi *baseInfo) ruleGraph() *ruleGraph {
	bi.graphOnce.Do(func() {
		g := &ruleGraph{rules: bi.base.Rules(), producers: map[kb.SynsetID][]int{}}
		for i, r := range g.rules {
			for _, o := range r.Outputs {
				if l := g.producers[o.Synset]; len(l) == 0 || l[len(l)-1] != i {
					if len(l) == 0 {
						g.outputs = append(g.outputs, o.Synset)
					}
					g.producers[o.Synset] = append(l, i)
				}
			}
		}
		slices.Sort(g.outputs)
		bi.graph = g
	})
	return bi.graph
}

// rulesFor returns the rules whose outputs are t or a descendant of t.
func (g *ruleGraph) rulesFor(b *kb.Base, t kb.SynsetID) []int {
	if b.IsLeaf(t) {
		return g.producers[t]
	}
	var out []int
	for _, o := range g.outputs {
		if b.IsA(o, t) {
			out = append(out, g.producers[o]...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// reach is one problem's search state.
type reach struct {
	c        *Context
	g        *ruleGraph
	targets  []kb.SynsetID        // the future synsets
	present  []kb.SynsetID        // synsets of instances that exist initially
	sources  []kb.SynsetID        // present particle sources and appliers
	produced map[kb.SynsetID]bool // synsets the rules make, found so far
	relevant []int                // rules that may lead to a target
	memo     map[kb.SynsetID]bool // initially() answers
	scene    *[]kb.SynsetID       // sceneSynsets, once computed
	// strict searches as the transitions engine applies rules: only the
	// declared objects take part (no scene equipment); a rule's output
	// that a declared instance can stand for is made like any other, and
	// one that none can (dough made on the way, the halves of a sliced
	// apple) is made as an anonymous object (inter), which only the rules
	// that consume anonymous objects can take (takesInter): it cannot be
	// equipment or a tool.
	strict bool
	inter  map[kb.SynsetID]bool // strict: undeclared intermediates made so far
}

func newReach(c *Context) *reach {
	r := &reach{c: c, g: c.info.ruleGraph(), produced: map[kb.SynsetID]bool{}, memo: map[kb.SynsetID]bool{},
		inter: map[kb.SynsetID]bool{}}
	for i := range c.Instances {
		in := &c.Instances[i]
		if in.Future || in.Synset == kb.NoSynset || slices.Contains(r.present, in.Synset) {
			continue
		}
		r.present = append(r.present, in.Synset)
		if c.Base.Has(in.Synset, kb.ParticleSource) || c.Base.Has(in.Synset, kb.ParticleApplier) {
			r.sources = append(r.sources, in.Synset)
		}
	}
	return r
}

// initially reports whether an instance present from the start may be of
// synset s.
func (r *reach) initially(s kb.SynsetID) bool {
	if v, ok := r.memo[s]; ok {
		return v
	}
	v := false
	for _, p := range r.present {
		if r.c.Base.IsA(p, s) || r.c.Base.IsA(s, p) {
			v = true
			break
		}
	}
	r.memo[s] = v
	return v
}

// bindable reports whether a declared instance can stand for output
// synset o: one of o's synset or an ancestor (SEMANTICS.md §3.4).
func (r *reach) bindable(o kb.SynsetID) bool {
	for i := range r.c.Instances {
		if s := r.c.Instances[i].Synset; s != kb.NoSynset && r.c.Base.IsA(o, s) {
			return true
		}
	}
	return false
}

// available reports whether s is present initially or made by now.
func (r *reach) available(s kb.SynsetID) bool {
	if r.initially(s) || r.produced[s] {
		return true
	}
	for p := range r.produced {
		if r.c.Base.IsA(p, s) {
			return true
		}
	}
	return false
}

// takesInter reports whether the engine lets rules of kind k consume
// anonymous objects: the recipe families, slicing and dicing; not melting
// (an anonymous object has no recorded temperature) or the washer.
func takesInter(k kb.RuleKind) bool {
	switch k {
	case kb.RuleHeatCook, kb.RuleToggleableMachine, kb.RuleMixingStick, kb.RuleSubstanceCooking,
		kb.RuleSubstanceWaterCooking, kb.RuleSlicing, kb.RuleDicing:
		return true
	}
	return false
}

// interAvailable reports whether an undeclared intermediate made so far
// may be of synset s.
func (r *reach) interAvailable(s kb.SynsetID) bool {
	if r.inter[s] {
		return true
	}
	for p := range r.inter {
		if r.c.Base.IsA(p, s) {
			return true
		}
	}
	return false
}

// inputAvailable reports whether input synset s of a rule of kind k is at
// hand: present, made, emitted by a source, or (strict) an intermediate
// the rule may take.
func (r *reach) inputAvailable(k kb.RuleKind, s kb.SynsetID) bool {
	return r.available(s) || r.sourced(s) || (r.strict && takesInter(k) && r.interAvailable(s))
}

// engineLimits lists, in the strict search, what keeps the engine from
// compiling a rule beyond its inputs and equipment: a slicing, dicing or
// melting rule whose input is a substance (those rules take objects:
// compile.go addUnary, addDice), and an input state that needs a
// substance no instance of the activity is of (an anonymous substance
// cannot cover an object: compile.go addRecipe).
func (r *reach) engineLimits(rule *kb.Rule) []string {
	if !r.strict {
		return nil
	}
	b := r.c.Base
	var out []string
	switch rule.Kind {
	case kb.RuleSlicing, kb.RuleDicing, kb.RuleMelting:
		for _, in := range rule.Inputs {
			if b.IsSubstance(in.Synset) {
				out = append(out, in.Name+" as an object (it is a substance)")
			}
		}
	}
	for _, st := range rule.InputStates {
		if len(st.Args) != 2 || !st.Value || b.IsSubstance(st.Args[0]) || !b.IsSubstance(st.Args[1]) {
			continue
		}
		declared := false
		for i := range r.c.Instances {
			if s := r.c.Instances[i].Synset; s != kb.NoSynset && b.IsA(s, st.Args[1]) {
				declared = true
				break
			}
		}
		if !declared {
			out = append(out, fmt.Sprintf("a declared %s for (%s %s %s)", b.Name(st.Args[1]), st.Predicate, b.Name(st.Args[0]), b.Name(st.Args[1])))
		}
	}
	return out
}

// tooFew reports, in the strict search, whether the activity declares
// fewer objects of an object input's synset than the rule takes, and no
// undeclared intermediate can make up the count (the engine compiles a
// recipe only when enough instances can be there, compile.go addRecipe).
func (r *reach) tooFew(k kb.RuleKind, in kb.SynsetCount) bool {
	if !r.strict || in.Count <= 1 || r.c.Base.IsSubstance(in.Synset) || (takesInter(k) && r.interAvailable(in.Synset)) {
		return false
	}
	n := 0
	for i := range r.c.Instances {
		if s := r.c.Instances[i].Synset; s != kb.NoSynset && r.c.Base.IsA(s, in.Synset) {
			n++
		}
	}
	return n < in.Count
}

// sourced reports whether a present particle source or applier emits
// substance s.
func (r *reach) sourced(s kb.SynsetID) bool {
	if !r.c.Base.IsSubstance(s) {
		return false
	}
	for _, src := range r.sources {
		for _, p := range [...]kb.Property{kb.ParticleSource, kb.ParticleApplier} {
			if cs, ok := r.c.Base.ParticleConditions(src, p, s); ok && !cs.Never {
				return true
			}
		}
	}
	return false
}

// ready reports whether rule i can fire now: every input present or
// made, and its equipment there.
func (r *reach) ready(i int) bool {
	rule := &r.g.rules[i]
	for _, in := range rule.Inputs {
		if !r.inputAvailable(rule.Kind, in.Synset) || r.tooFew(rule.Kind, in) {
			return false
		}
	}
	if len(r.engineLimits(rule)) > 0 {
		return false
	}
	for _, alts := range [][]kb.SynsetCount{rule.Containers, rule.HeatSources, rule.Machines} {
		if len(alts) > 0 && !slices.ContainsFunc(alts, func(a kb.SynsetCount) bool { return r.equipment(a.Synset) }) {
			return false
		}
	}
	tool, _ := toolFor(rule)
	if r.strict && tool == kb.HeatSource && rule.Kind != kb.RuleHeatCook {
		// The engine cooks substances in a container recorded hot and
		// melts what is recorded hot enough, whatever heated it.
		return true
	}
	return tool == kb.NoProperty || r.hasTool(tool)
}

// toolFor returns the ability some object of the scene must have for a
// rule to fire, beyond its listed equipment (SEMANTICS.md B §4.4): a
// slicer to slice or dice, a mixing tool to stir, a heat source to cook
// or melt when the rule names none; kb.NoProperty when none is needed.
func toolFor(rule *kb.Rule) (kb.Property, string) {
	switch rule.Kind {
	case kb.RuleSlicing, kb.RuleDicing:
		return kb.Slicer, "a slicer (e.g. a knife)"
	case kb.RuleMixingStick:
		return kb.MixingTool, "a mixing tool (e.g. a spoon)"
	case kb.RuleHeatCook:
		if len(rule.HeatSources) == 0 {
			return kb.HeatSource, "a heat source"
		}
	case kb.RuleSubstanceCooking, kb.RuleSubstanceWaterCooking, kb.RuleMelting:
		return kb.HeatSource, "a heat source"
	}
	return kb.NoProperty, ""
}

// missing lists what rule i lacks, for messages: inputs (noting those
// that some rule makes, but not from what the activity has) and equipment.
func (r *reach) missing(i int) []string { return r.missingDepth(i, 1) }

// missingDepth is missing, saying for up to depth levels why an input
// that rules make cannot be made either (the first of its rules that lacks
// the least).
func (r *reach) missingDepth(i, depth int) []string {
	rule := &r.g.rules[i]
	var out []string
	for _, in := range rule.Inputs {
		if r.tooFew(rule.Kind, in) {
			out = append(out, fmt.Sprintf("%d %s (fewer are declared)", in.Count, in.Name))
			continue
		}
		if !r.inputAvailable(rule.Kind, in.Synset) {
			name := in.Name
			switch {
			case r.strict && r.interAvailable(in.Synset):
				name += " (made here only as an undeclared intermediate, which " + rule.Kind.String() + " rules do not take)"
			case len(r.g.rulesFor(r.c.Base, in.Synset)) > 0:
				name += " (which cannot be made here either" + r.why(in.Synset, depth) + ")"
			}
			out = append(out, name)
		}
	}
	for _, group := range []struct {
		what string
		alts []kb.SynsetCount
	}{{"container", rule.Containers}, {"heat source", rule.HeatSources}, {"machine", rule.Machines}} {
		if len(group.alts) == 0 || slices.ContainsFunc(group.alts, func(a kb.SynsetCount) bool { return r.equipment(a.Synset) }) {
			continue
		}
		names := make([]string, len(group.alts))
		for j, a := range group.alts {
			names[j] = a.Name
		}
		out = append(out, "a "+group.what+" ("+strings.Join(names, " or ")+")")
	}
	if tool, what := toolFor(rule); tool != kb.NoProperty && !r.hasTool(tool) {
		out = append(out, what)
	}
	return append(out, r.engineLimits(rule)...)
}

// why is ": RULE lacks ..." for the rule making s that lacks the least,
// when depth allows; "" otherwise.
func (r *reach) why(s kb.SynsetID, depth int) string {
	if depth <= 0 {
		return ""
	}
	best, bestMissing := -1, []string(nil)
	for _, j := range r.g.rulesFor(r.c.Base, s) {
		m := r.missingDepth(j, depth-1)
		if best < 0 || len(m) < len(bestMissing) {
			best, bestMissing = j, m
		}
	}
	if best < 0 || len(bestMissing) == 0 {
		return ""
	}
	return ": " + r.g.rules[best].Name + " lacks " + list(bestMissing, 3)
}

// hasTool reports whether an object present or made, or a scene object of
// a scene that can host the activity, has the ability.
func (r *reach) hasTool(p kb.Property) bool {
	for _, s := range r.present {
		if r.c.Base.Has(s, p) {
			return true
		}
	}
	if r.strict {
		for s := range r.produced {
			if r.c.Base.Has(s, p) {
				return true
			}
		}
		return false
	}
	for _, s := range r.present {
		if r.c.Base.Has(s, p) {
			return true
		}
	}
	for s := range r.produced {
		if r.c.Base.Has(s, p) {
			return true
		}
	}
	for _, s := range r.sceneSynsets() {
		if r.c.Base.Has(s, p) {
			return true
		}
	}
	return false
}

// equipment reports whether equipment of synset s is at hand: declared,
// made, or a scene object of a scene that can host the activity (a
// kitchen's stove is there to be used whether or not the definition names
// it; a stockpot is not).
func (r *reach) equipment(s kb.SynsetID) bool {
	if r.available(s) {
		return true
	}
	if r.strict {
		return false
	}
	for _, g := range r.sceneSynsets() {
		if r.c.Base.IsA(g, s) {
			return true
		}
	}
	return false
}

// sceneSynsets lists the synsets of the scene objects (fixed furniture
// and appliances, which are in the scene whether or not the definition
// names them; movable objects are imported only when declared) of the
// scenes that can host the activity (every scene when none can, or when it
// names no room), computed once; nil when the knowledge base has no
// scenes.
func (r *reach) sceneSynsets() []kb.SynsetID {
	if r.scene != nil {
		return *r.scene
	}
	var out []kb.SynsetID
	defer func() { r.scene = &out }()
	f := r.c.Feasibility()
	if f == nil {
		return nil
	}
	idx := r.c.info.sceneIndex()
	any := !slices.ContainsFunc(f.Scenes, func(s SceneFit) bool { return s.OK })
	for i, s := range idx.scenes {
		if !any && !f.Scenes[i].OK {
			continue
		}
		for _, room := range s.rooms {
			for _, g := range room.groups {
				if r.c.Base.Has(g.synset, kb.SceneObject) {
					out = append(out, g.synset)
				}
			}
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	return out
}

// reach returns the reachability search of the problem's future synsets,
// run once; nil when the problem has no future instance of a known synset.
func (c *Context) reach() *reach {
	if c.cache.reachDone {
		return c.cache.reach
	}
	c.cache.reachDone = true
	var targets []kb.SynsetID
	for i := range c.Instances {
		in := &c.Instances[i]
		if in.Future && in.Synset != kb.NoSynset && !slices.Contains(targets, in.Synset) {
			targets = append(targets, in.Synset)
		}
	}
	if len(targets) == 0 {
		return nil
	}
	r := newReach(c)
	r.targets = targets
	r.search(targets)
	c.cache.reach = r
	return r
}

// strictReach is the search of reach as the transitions engine applies
// the rules (see reach.strict), run once; nil as reach.
func (c *Context) strictReach() *reach {
	if c.cache.strictDone {
		return c.cache.strict
	}
	c.cache.strictDone = true
	if r := c.reach(); r != nil {
		s := newReach(c)
		s.strict, s.targets = true, r.targets
		s.search(r.targets)
		c.cache.strict = s
	}
	return c.cache.strict
}

// consumes reports whether a rule that may lead to a target takes s as an
// input or needs it as equipment.
func (r *reach) consumes(s kb.SynsetID) bool {
	if s == kb.NoSynset {
		return false
	}
	b := r.c.Base
	fits := func(cs []kb.SynsetCount) bool {
		for _, x := range cs {
			if b.IsA(s, x.Synset) || b.IsA(x.Synset, s) {
				return true
			}
		}
		return false
	}
	for _, i := range r.relevant {
		rule := &r.g.rules[i]
		if fits(rule.Inputs) || fits(rule.Containers) || fits(rule.HeatSources) || fits(rule.Machines) {
			return true
		}
		if tool, _ := toolFor(rule); tool != kb.NoProperty && b.Has(s, tool) {
			return true
		}
	}
	return false
}

// search finds what the relevant rules can make from the present synsets.
func (r *reach) search(targets []kb.SynsetID) {
	// The rules that may matter: backwards from the targets.
	seenRule := map[int]bool{}
	seenSyn := map[kb.SynsetID]bool{}
	queue := append([]kb.SynsetID(nil), targets...)
	for len(queue) > 0 {
		t := queue[0]
		queue = queue[1:]
		if seenSyn[t] {
			continue
		}
		seenSyn[t] = true
		for _, i := range r.g.rulesFor(r.c.Base, t) {
			if seenRule[i] {
				continue
			}
			seenRule[i] = true
			r.relevant = append(r.relevant, i)
			for _, in := range r.g.rules[i].Inputs {
				if !r.initially(in.Synset) {
					queue = append(queue, in.Synset)
				}
			}
		}
	}
	sort.Ints(r.relevant)
	// Forwards until nothing new is made.
	fired := make(map[int]bool, len(r.relevant))
	for changed := true; changed; {
		changed = false
		for _, i := range r.relevant {
			if fired[i] || !r.ready(i) {
				continue
			}
			fired[i], changed = true, true
			for _, o := range r.g.rules[i].Outputs {
				// The engine makes an output that no declared instance
				// stands for as an anonymous object, for the rules that
				// take those (a fixed point: they may make more).
				if !r.strict || r.bindable(o.Synset) {
					r.produced[o.Synset] = true
				} else {
					r.inter[o.Synset] = true
				}
			}
		}
	}
}

// makeable reports whether the activity can bring an instance of t into
// existence.
func (r *reach) makeable(t kb.SynsetID) bool {
	if r.produced[t] || r.sourced(t) {
		return true
	}
	for p := range r.produced {
		if r.c.Base.IsA(p, t) {
			return true
		}
	}
	return false
}

// explain says why t cannot be made: the recipes that would make it, with
// what they lack, fewest missing first.
func (r *reach) explain(t kb.SynsetID) string {
	rules := r.g.rulesFor(r.c.Base, t)
	if len(rules) == 0 {
		if r.c.Base.IsSubstance(t) {
			return "no transition rule produces it and no particle source of the activity emits it"
		}
		return "no transition rule produces it"
	}
	type option struct {
		rule    int
		missing []string
	}
	opts := make([]option, len(rules))
	for k, i := range rules {
		opts[k] = option{i, r.missing(i)}
	}
	sort.SliceStable(opts, func(a, b int) bool { return len(opts[a].missing) < len(opts[b].missing) })
	const shown = 3
	parts := make([]string, 0, shown)
	for k, o := range opts {
		if k == shown {
			break
		}
		rule := &r.g.rules[o.rule]
		parts = append(parts, fmt.Sprintf("%s %s lacks %s", rule.Kind, rule.Name, list(o.missing, 4)))
	}
	s := plural(len(rules), "the recipe that makes it: ", fmt.Sprintf("%d recipes make it: ", len(rules))) + strings.Join(parts, "; ")
	if len(rules) > shown {
		s += fmt.Sprintf("; and %d more", len(rules)-shown)
	}
	return s
}

var ruleUnreachableGoal = &Rule{
	Code: "unreachable-goal", Name: "reachability", Severity: bddl.Error,
	Doc: "every future synset the goal needs can be produced from the synsets present initially through the " +
		"knowledge base's transition rules (or, for substances, a particle source of the activity); a future object " +
		"is needed when the goal is false whenever it never exists",
	Fix: "add the missing inputs or equipment to :objects and :init, or change the goal",
	Check: func(c *Context) {
		r := c.reach()
		if r == nil || c.Problem.Goal == nil {
			return
		}
		absent := make([]bool, len(c.Instances))
		var lost []kb.SynsetID
		for _, t := range r.targets {
			if r.makeable(t) {
				continue
			}
			lost = append(lost, t)
			for i := range c.Instances {
				if c.Instances[i].Future && c.Instances[i].Synset == t {
					absent[i] = true
				}
			}
		}
		if len(lost) == 0 || c.goalWithout(absent) != tvFalse {
			return
		}
		// Blame the synsets the goal cannot do without one by one; when it
		// only fails without several together (an or), blame them all.
		var blamed []kb.SynsetID
		one := make([]bool, len(c.Instances))
		for _, t := range lost {
			for i := range c.Instances {
				one[i] = absent[i] && c.Instances[i].Synset == t
			}
			if c.goalWithout(one) == tvFalse {
				blamed = append(blamed, t)
			}
		}
		if len(blamed) == 0 {
			blamed = lost
		}
		for _, t := range blamed {
			// Report at the first (future x) of the synset.
			for k := range c.Init {
				l := &c.Init[k]
				if l.Pred == "future" && !l.Negated && len(l.Args) == 1 && l.Args[0].Kind == ArgInstance && c.Instances[l.Args[0].Inst].Synset == t {
					c.Report(l.Formula.Info().Range,
						fmt.Sprintf("the goal needs %s, which cannot be made from what the activity starts with", c.name(t)),
						r.explain(t))
					break
				}
			}
		}
	},
}

var ruleUnmadeFuture = &Rule{
	Code: "unmade-future", Name: "reachability", Severity: bddl.Warning,
	Doc: "every future object can be made from the declared objects alone, as `check --transitions` applies the " +
		"rules: by rules whose inputs are declared or made by such rules (an undeclared intermediate, such as dough, " +
		"is made as an anonymous object that recipes, slicing and dicing take) and whose equipment and tools are declared",
	Fix: "declare the equipment (the oven, the knife) as objects, or the missing inputs",
	Check: func(c *Context) {
		r, s := c.reach(), c.strictReach()
		if r == nil || s == nil {
			return
		}
		for _, t := range s.targets {
			if s.makeable(t) || !r.makeable(t) {
				continue // made, or never made at all (unreachable-goal)
			}
			for k := range c.Init {
				l := &c.Init[k]
				if l.Pred == "future" && !l.Negated && len(l.Args) == 1 && l.Args[0].Kind == ArgInstance && c.Instances[l.Args[0].Inst].Synset == t {
					c.Report(l.Formula.Info().Range,
						fmt.Sprintf("no rule makes %s from the declared objects: the engine needs scene equipment, more objects, or inputs that no rule makes here", c.name(t)),
						s.explain(t))
					break
				}
			}
		}
	},
}

// tv is a truth value of the static goal analysis: unknown, false, true.
type tv uint8

const (
	tvUnknown tv = iota
	tvFalse
	tvTrue
)

func not3(v tv) tv {
	switch v {
	case tvFalse:
		return tvTrue
	case tvTrue:
		return tvFalse
	}
	return tvUnknown
}

// goalWithout evaluates the goal statically under the assumption that the
// instances marked absent never exist and nothing else is known: an atom
// over an absent instance is false (so its negation is true, and future of
// it true); every other atom is unknown. Connectives follow Kleene's
// logic. A variable stands for an absent instance when every instance of
// its domain is absent.
func (c *Context) goalWithout(absent []bool) tv {
	vars := map[*bddl.VarDecl]bool{} // variables whose whole domain is absent
	var eval func(f bddl.Formula) tv
	isAbsent := func(a Arg) bool {
		switch a.Kind {
		case ArgInstance:
			return absent[a.Inst]
		case ArgVariable:
			return vars[a.Var]
		}
		return false
	}
	goalAtom := make(map[*bddl.Atom]*GoalAtom, len(c.Goal))
	for k := range c.Goal {
		goalAtom[c.Goal[k].Atom] = &c.Goal[k]
	}
	eval = func(f bddl.Formula) tv {
		switch n := f.(type) {
		case *bddl.Atom:
			g := goalAtom[n]
			if g == nil {
				return tvUnknown
			}
			gone := false
			for _, a := range g.Args {
				gone = gone || isAbsent(a)
			}
			switch {
			case !gone:
				return tvUnknown
			case g.Pred == "future":
				return tvTrue
			}
			return tvFalse
		case *bddl.Not:
			return not3(eval(n.X))
		case *bddl.And:
			v := tvTrue
			for _, x := range n.Xs {
				switch eval(x) {
				case tvFalse:
					return tvFalse
				case tvUnknown:
					v = tvUnknown
				}
			}
			return v
		case *bddl.Or:
			v := tvFalse
			for _, x := range n.Xs {
				switch eval(x) {
				case tvTrue:
					return tvTrue
				case tvUnknown:
					v = tvUnknown
				}
			}
			return v
		case *bddl.Imply:
			a, b := not3(eval(n.If)), eval(n.Then)
			switch {
			case a == tvTrue || b == tvTrue:
				return tvTrue
			case a == tvFalse && b == tvFalse:
				return tvFalse
			}
			return tvUnknown
		case *bddl.Quant:
			sizes := make([]int, len(n.Vars))
			for i := range n.Vars {
				v := &n.Vars[i]
				dom := c.ofType[v.Type.Key()]
				sizes[i] = len(dom)
				all := len(dom) > 0
				for _, j := range dom {
					all = all && absent[j]
				}
				vars[v] = all
			}
			body := eval(n.Body)
			for i := range n.Vars {
				delete(vars, &n.Vars[i])
			}
			empty := slices.Contains(sizes, 0)
			switch n.Kind {
			case bddl.Forall, bddl.ForPairs:
				if empty {
					return tvTrue
				}
				return body
			case bddl.Exists:
				if empty {
					return tvFalse
				}
				return body
			case bddl.ForN, bddl.ForNPairs:
				if n.N == 0 {
					return tvUnknown
				}
				if empty || body == tvFalse {
					return tvFalse
				}
				return tvUnknown
			}
		}
		return tvUnknown
	}
	return eval(c.Problem.Goal)
}
