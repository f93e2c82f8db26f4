package transitions

import (
	"fmt"
	"math"

	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// ObjectID is an instance of the compiled activity.
type ObjectID = predicates.ObjectID

// NoObject stands for "none".
const NoObject = predicates.NoObject

// Outcome is what one Step did. Its slices belong to the Engine and are
// valid until the next Step or Reset; copy what you keep.
type Outcome struct {
	Firings []Firing
	// Changes are every change made to the state, in the order made: all
	// removals, then all additions.
	Changes []Change
}

// Fired reports whether any rule fired.
func (o Outcome) Fired() bool { return len(o.Firings) > 0 }

// Firing is one rule that fired.
type Firing struct {
	Rule   string // the rule's name; "garbage" for the garbage fallback
	Family Family
	// RuleIndex is the rule's index in Rules(base), -1 for the garbage
	// fallback, the washer's wetting and its removal of substances the
	// cleaning conditions do not list ("washer-default").
	RuleIndex int
	// Container is the container, machine, washer or dryer, or for
	// slicing, dicing and melting the object itself; Tool the slicer or
	// mixing tool that triggered it; HeatSource the active heat source.
	Container, Tool, HeatSource ObjectID
	// Consumed are the objects removed; ConsumedSubstances the substances
	// taken out of the container.
	Consumed, ConsumedSubstances []ObjectID
	// Produced are the outputs, in output order.
	Produced []Product
	// Anonymous names the anonymous part a dicing firing consumed (then
	// Container is NoObject); ConsumedAnonymous the anonymous objects and
	// substances a recipe consumed.
	Anonymous         string
	ConsumedAnonymous []string
	// Instances is how many times an object recipe's inputs were found
	// (heat_cook recipes with object outputs are multi-instance).
	Instances int
}

// Product is one output of a firing.
type Product struct {
	Synset string
	// Object is the instance it was bound to, NoObject when the activity
	// has no free instance for it; Name is the instance's name, or a
	// stable generated name such as half__apple.n.01_gen1.
	Object    ObjectID
	Name      string
	Substance bool
	// Anonymous marks a part no declared instance stands for, which the
	// engine keeps as an anonymous object (Options.MaxAnonymous).
	Anonymous bool
}

// ChangeKind is the kind of a Change.
type ChangeKind uint8

const (
	// ChangeExists sets whether Object exists (Value True or False).
	ChangeExists ChangeKind = iota + 1
	// ChangeFact records (Pred Object Arg) as Value.
	ChangeFact
	// ChangeAABB records Object's box.
	ChangeAABB
	// ChangeTemperature and ChangeMaxTemperature record Object's
	// temperature or highest temperature (in Temp), inherited by the parts
	// of a sliced object.
	ChangeTemperature
	ChangeMaxTemperature
)

// Change is one change a Step made to the state.
type Change struct {
	Kind        ChangeKind
	Object, Arg ObjectID
	Pred        predicates.PredID
	Value       predicates.Truth
	Box         predicates.Box
	Temp        float64
}

// Engine applies one activity's transition rules to its states. It keeps
// the memory of edge-triggered conditions and heat counters between Steps:
// use one Engine per recording (Fork makes another from the same
// compilation), and Reset between recordings. Not safe for concurrent use.
type Engine struct {
	c   *compiled
	mem memory

	// Per-step buffers, reused.
	s         *predicates.State // the state of the step in progress
	plans     []plan
	objBuf    []ObjectID
	relBuf    []rel
	busyList  []ObjectID
	garbage   [1]output
	prodBuf   []Product
	firings   []Firing
	changes   []Change
	taken     []bool // objects consumed by a plan this step
	busy      []bool // containers that fired this step
	contents  []ObjectID
	systems   []ObjectID
	valid     []ObjectID
	heatAct   []bool // per heat source: active this step
	anyHeat   bool
	genCount  map[string]int
	dt        float64
	reactStep int
	// next are the changes that land at the start of the next Step: the
	// output states and placement of created objects, the inherited
	// states of slices (the reference applies them one rule step later);
	// landing is the list being applied.
	next, landing []Change
	// cookClock counts the steps on which the heat_cook rule was active
	// (CookingRule.counter).
	cookClock int
	// elapsed is the number of simulator steps the next Step stands for
	// (SetElapsed).
	elapsed int
	// stepNo counts Steps; anon are the anonymous parts (anonymous.go).
	stepNo                 int
	anon                   []anonObj
	anonCount, anonDropped int
	anonNames              []string   // Firing.ConsumedAnonymous of this step
	scratch                []ObjectID // partitionAnon's
}

// Options are the deliberate deviations from the reference an Engine can
// be asked for; the zero value follows the reference.
type Options struct {
	// FixedBase overrides, by instance name, whether an object is
	// fixed-base. The reference reads it from the scene file; recordings
	// do not carry it, so by default the scene objects (the instances an
	// inroom literal of :init places, and those of synsets with the
	// sceneObject property) are fixed-base and the others are not. Fixed-base objects are never recipe containers or machines,
	// and never the contents of one.
	FixedBase map[string]bool
	// SameStep gives created objects their output states and place on the
	// step the rule fires, instead of on the next one as the reference
	// does (its TransitionRuleAPI.step applies them at the start of the
	// following rule step).
	SameStep bool
	// GPUDynamics mirrors the reference's gm.USE_GPU_DYNAMICS (off by
	// default there): with it, a washer wets its load.
	GPUDynamics bool
	// MaxAnonymous bounds the anonymous objects (outputs no declared
	// instance stands for that a later rule can take) kept at once; 0 is
	// DefaultMaxAnonymous, a negative value keeps none.
	MaxAnonymous int
}

// memory is what an Engine remembers between steps.
type memory struct {
	machineOn   []bool // per machine candidate: toggled_on at the previous step
	mixTouch    []bool // per mixing container: touching a tool at the previous step
	washerOn    []bool // per washer: on and closed at the previous step
	dryerOn     []bool
	slicerOn    []bool // per slicer: SlicerActive's value
	slicerPrev  []bool // per slicer: touched a sliceable at the previous step
	slicerIdle  []int  // per slicer: SlicerActive's DELAY_COUNTER
	slicerAfter []bool // per slicer: touching a sliceable after the previous step's rules
	cookCount   []int  // per heat_cook recipe: CookingRule._heat_steps
	cookLast    []int  // per heat_cook recipe: CookingRule._last_heat_timestep
}

// Compile prepares the knowledge base's rules for one activity: it keeps
// the rules whose inputs and equipment the activity declares, resolves
// every synset and candidate once, and returns an Engine. A nil base gives
// an Engine with no rules.
func Compile(prog *predicates.Program, base *kb.Base) (*Engine, error) {
	if prog == nil {
		return nil, fmt.Errorf("transitions: Compile of a nil program")
	}
	c := compile(prog, base, nil, Options{})
	return c.newEngine(), nil
}

// CompileWith is Compile with options.
func CompileWith(prog *predicates.Program, base *kb.Base, opts Options) (*Engine, error) {
	if prog == nil {
		return nil, fmt.Errorf("transitions: Compile of a nil program")
	}
	return compile(prog, base, nil, opts).newEngine(), nil
}

// CompileOnly is Compile keeping only the rules (indexes into
// Rules(base)) for which keep is true: to try one recipe alone, without
// the recipes before it in the file taking its inputs first.
func CompileOnly(prog *predicates.Program, base *kb.Base, keep func(rule int) bool) (*Engine, error) {
	if prog == nil {
		return nil, fmt.Errorf("transitions: Compile of a nil program")
	}
	return compile(prog, base, keep, Options{}).newEngine(), nil
}

func (c *compiled) newEngine() *Engine {
	e := &Engine{c: c, genCount: map[string]int{}}
	e.taken = make([]bool, c.n+c.maxAnon())
	e.busy = make([]bool, c.n)
	e.heatAct = make([]bool, len(c.heatSources))
	e.garbage[0] = c.garbageOut
	e.mem = memory{
		machineOn:   make([]bool, len(c.machines)),
		mixTouch:    make([]bool, len(c.mixContainers)),
		washerOn:    make([]bool, len(c.washers)),
		dryerOn:     make([]bool, len(c.dryers)),
		slicerOn:    make([]bool, len(c.slicers)),
		slicerPrev:  make([]bool, len(c.slicers)),
		slicerIdle:  make([]int, len(c.slicers)),
		slicerAfter: make([]bool, len(c.slicers)),
		cookCount:   make([]int, len(c.cook)),
		cookLast:    make([]int, len(c.cook)),
	}
	e.SetDT(0)
	e.Reset()
	return e
}

// Fork returns a new Engine sharing this one's compilation, with fresh
// memory: for another recording of the same activity, or another
// goroutine.
func (e *Engine) Fork() *Engine {
	f := e.c.newEngine()
	f.SetDT(e.dt)
	return f
}

// SetDT sets the simulated seconds per step, which the slicer's 2 s
// re-arm delay is counted in: max(1, ⌈2.0/dt⌉) steps, as SlicerActive's
// STEPS_TO_WAIT (object_states/slicer_active.py, global_initialize); 0
// (unknown) re-arms after one step.
func (e *Engine) SetDT(dt float64) {
	e.dt = dt
	e.reactStep = 1
	if dt > 0 {
		e.reactStep = max(1, int(math.Ceil(slicerReactivationS/dt-1e-9)))
	}
}

// SetElapsed says how many simulator steps the next Step stands for, when
// a recording skips steps (its step numbers, or its times over dt, jump
// by more than one): the steps in between are taken to keep the previous
// step's state, as a recording keeps a value until it changes. Only what
// counts steps uses it: the slicer's re-arm delay and the heat_cook
// counters. n < 1 counts as 1; it applies to the next Step only.
func (e *Engine) SetElapsed(n int) { e.elapsed = max(n, 1) }

// ElapsedSteps is the number of simulator steps between two recorded
// steps: from their times over dt when both are recorded and dt is
// known, else from their step numbers; at least 1.
func ElapsedSteps(prevStep, step int64, prevT, t float64, hasT bool, dt float64) int {
	n := step - prevStep
	if hasT && dt > 0 {
		n = int64(math.Round((t - prevT) / dt))
	}
	return int(max(n, 1))
}

// Reset forgets the previous steps: every machine off, every slicer
// active, every heat counter zero, generated names restarted.
func (e *Engine) Reset() {
	clear(e.mem.machineOn)
	clear(e.mem.mixTouch)
	clear(e.mem.washerOn)
	clear(e.mem.dryerOn)
	for i := range e.mem.slicerOn {
		e.mem.slicerOn[i] = true
		e.mem.slicerIdle[i] = 0
	}
	clear(e.mem.slicerPrev)
	clear(e.mem.slicerAfter)
	e.elapsed = 1
	clear(e.mem.cookCount)
	for i := range e.mem.cookLast {
		e.mem.cookLast[i] = -1
	}
	e.cookClock = 0
	e.stepNo, e.anon, e.anonCount, e.anonDropped = 0, e.anon[:0], 0, 0
	clear(e.genCount)
	e.plans, e.firings, e.changes = e.plans[:0], e.firings[:0], e.changes[:0]
	e.next = e.next[:0]
}

// Program returns the program the engine was compiled for.
func (e *Engine) Program() *predicates.Program { return e.c.prog }

// NumRules is the number of rules that can apply to the activity.
func (e *Engine) NumRules() int { return len(e.c.active) }

// ActiveRules lists the indexes (into Rules(base)) of the rules that can
// apply to the activity, in step order.
func (e *Engine) ActiveRules() []int { return append([]int(nil), e.c.active...) }
