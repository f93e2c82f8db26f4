package transitions

import (
	"fmt"

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
)

// Change is one change a Step made to the state.
type Change struct {
	Kind        ChangeKind
	Object, Arg ObjectID
	Pred        predicates.PredID
	Value       predicates.Truth
	Box         predicates.Box
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
	cookSeen  []bool // per heat_cook recipe: executable this step
	touched   []bool // per slicer: touched a sliceable this step
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
}

// memory is what an Engine remembers between steps.
type memory struct {
	machineOn  []bool // per machine candidate: toggled_on at the previous step
	mixTouch   []bool // per mixing container: touching a tool at the previous step
	washerOn   []bool // per washer: on and closed at the previous step
	dryerOn    []bool
	slicerOn   []bool // per slicer: active
	slicerIdle []int  // per slicer: steps touching no sliceable since it last did
	cookCount  []int  // per heat_cook recipe: consecutive executable steps
}

// Compile prepares the knowledge base's rules for one activity: it keeps
// the rules whose inputs and equipment the activity declares, resolves
// every synset and candidate once, and returns an Engine. A nil base gives
// an Engine with no rules.
func Compile(prog *predicates.Program, base *kb.Base) (*Engine, error) {
	if prog == nil {
		return nil, fmt.Errorf("transitions: Compile of a nil program")
	}
	c := compile(prog, base, nil)
	return c.newEngine(), nil
}

// CompileOnly is Compile keeping only the rules (indexes into
// Rules(base)) for which keep is true: to try one recipe alone, without
// the recipes before it in the file taking its inputs first.
func CompileOnly(prog *predicates.Program, base *kb.Base, keep func(rule int) bool) (*Engine, error) {
	if prog == nil {
		return nil, fmt.Errorf("transitions: Compile of a nil program")
	}
	return compile(prog, base, keep).newEngine(), nil
}

func (c *compiled) newEngine() *Engine {
	e := &Engine{c: c, genCount: map[string]int{}}
	e.taken = make([]bool, c.n)
	e.busy = make([]bool, c.n)
	e.heatAct = make([]bool, len(c.heatSources))
	e.cookSeen = make([]bool, len(c.cook))
	e.touched = make([]bool, len(c.slicers))
	e.garbage[0] = c.garbageOut
	e.mem = memory{
		machineOn:  make([]bool, len(c.machines)),
		mixTouch:   make([]bool, len(c.mixContainers)),
		washerOn:   make([]bool, len(c.washers)),
		dryerOn:    make([]bool, len(c.dryers)),
		slicerOn:   make([]bool, len(c.slicers)),
		slicerIdle: make([]int, len(c.slicers)),
		cookCount:  make([]int, len(c.cook)),
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

// SetDT sets the simulated seconds per step, which the slicer's 0.5 s
// re-arm delay is counted in; 0 (unknown) re-arms after one step.
func (e *Engine) SetDT(dt float64) {
	e.dt = dt
	e.reactStep = 1
	if dt > 0 {
		n := int(slicerReactivationS/dt + 0.999999)
		e.reactStep = max(n, 1)
	}
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
	clear(e.mem.cookCount)
	clear(e.genCount)
	e.plans, e.firings, e.changes = e.plans[:0], e.firings[:0], e.changes[:0]
}

// Program returns the program the engine was compiled for.
func (e *Engine) Program() *predicates.Program { return e.c.prog }

// NumRules is the number of rules that can apply to the activity.
func (e *Engine) NumRules() int { return len(e.c.active) }

// ActiveRules lists the indexes (into Rules(base)) of the rules that can
// apply to the activity, in step order.
func (e *Engine) ActiveRules() []int { return append([]int(nil), e.c.active...) }
