package predicates

// PredID is the dense id of a predicate in the package's registry. Ids
// are stable within a build of the package; look them up by name once
// (PredByName, Program.PredID), never per step.
type PredID uint8

// Source says what decided an atom's value; traces and EvalStats report
// it so a user can tell a recorded answer from an approximate one.
type Source uint8

const (
	SourceNone        Source = iota // not evaluated
	SourceStatic                    // fixed at compile time (insource)
	SourceExistence                 // an argument does not exist (SEMANTICS.md A2)
	SourceFact                      // a recorded fact
	SourceQuantity                  // recorded quantities (temperature, joints, contacts, ...)
	SourceGeometry                  // box geometry: an approximation (B §5.2)
	SourceClosedWorld               // nothing recorded, closed world: False
	SourceMissing                   // nothing recorded to decide on: Unknown
	SourceUncertain                 // box geometry within the boxes' uncertainty: Unknown
)

var sourceNames = [...]string{"none", "static", "existence", "fact", "quantity", "geometry", "closed-world", "missing", "uncertain"}

func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "source(?)"
}

// domainSet says which domain files declare a predicate.
type domainSet uint8

const (
	inOmniGibson domainSet = 1 << iota // omnigibson and behavior-1k
	inIGibson                          // legacy BEHAVIOR-100
	inExtension                        // ours: the strict partners closed and empty
)

// argKind is what a predicate's second argument names.
type argKind uint8

const (
	argObject    argKind = iota
	argSubstance         // a particle system such as water.n.06_1
	argRoomType          // a constant such as kitchen
)

// ruleFunc computes an atom from recorded quantities, then geometry. It
// is called only for existing arguments and only when no fact is
// recorded; it returns Unknown with SourceMissing when nothing decides.
type ruleFunc func(p *Program, s *State, a, b ObjectID) (Truth, Source)

// detailFunc describes the recorded values an atom was decided on, for
// explanations: "max_temperature 41.0 < 70 (cook_temperature of ...)".
type detailFunc func(p *Program, s *State, a, b ObjectID) string

// predicate is one entry of the registry.
type predicate struct {
	name    string
	arity   int
	second  argKind
	domains domainSet
	// ungated predicates (future, real) are about existence itself, so an
	// argument that does not exist does not make them False.
	ungated bool
	// static, when known, is the atom's value whatever the state.
	static Truth
	// irreflexive relations are False of an object and itself, before any
	// fact: the reference's rays and contacts ignore an object's own links.
	irreflexive bool
	// partner is the strict partner that a negation becomes in strict
	// mode (open ↔ closed, filled ↔ empty, folded ↔ unfolded).
	partner PredID
	rule    ruleFunc
	detail  detailFunc
	// rule text for documentation and the README table.
	doc string
}

// The predicates. Their order is the registry order, and so their ids.
const (
	predInvalid PredID = iota
	predCooked
	predBurnt
	predFrozen
	predHot
	predOnFire
	predOpen
	predClosed
	predToggledOn
	predFolded
	predUnfolded
	predBroken
	predSliced
	predFuture
	predReal
	predContains
	predEmpty
	predFilled
	predCovered
	predSaturated
	predInsource
	predOntop
	predUnder
	predNextto
	predTouching
	predInside
	predOverlaid
	predDraped
	predOnfloor
	predAttached
	predGrasped
	predInroom
	predDusty
	predStained
	predSoaked
	predPerished
	predScrewed
	predTimeset
	numPreds int = iota
)

// registry is indexed by PredID; entry 0 is unused so the zero PredID is
// never a valid predicate.
var registry [numPreds]predicate

var predIndex = map[string]PredID{}

func register(id PredID, p predicate) {
	switch p.name {
	case "touching", "ontop", "under", "nextto", "inside", "overlaid", "draped", "onfloor", "attached":
		p.irreflexive = true
	}
	if p.partner == 0 {
		p.partner = predInvalid
	}
	registry[id] = p
	predIndex[p.name] = id
}

// PredByName returns the id of a predicate by its BDDL name (lower case).
func PredByName(name string) (PredID, bool) {
	id, ok := predIndex[name]
	return id, ok
}

// String is the predicate's BDDL name.
func (id PredID) String() string {
	if int(id) < numPreds && registry[id].name != "" {
		return registry[id].name
	}
	return "pred(?)"
}

// Arity is the number of arguments the predicate takes.
// Irreflexive reports whether the predicate is a kinematic relation that
// never holds of an object and itself (the simulator cannot make it true),
// so such an atom is decided False even when a recording says otherwise.
func (id PredID) Irreflexive() bool {
	return id > 0 && int(id) < numPreds && registry[id].irreflexive
}

func (id PredID) Arity() int {
	if int(id) < numPreds {
		return registry[id].arity
	}
	return 0
}

// PredInfo describes a registered predicate, for documentation and tools.
type PredInfo struct {
	ID      PredID
	Name    string
	Arity   int
	Domains []string // omnigibson, igibson, extension
	Partner string   // the strict partner, if any
	Rule    string   // how the value is decided
}

// Predicates lists every registered predicate in registry order.
func Predicates() []PredInfo {
	var out []PredInfo
	for id := 1; id < numPreds; id++ {
		p := &registry[id]
		info := PredInfo{ID: PredID(id), Name: p.name, Arity: p.arity, Rule: p.doc}
		if p.domains&inOmniGibson != 0 {
			info.Domains = append(info.Domains, "omnigibson")
		}
		if p.domains&inIGibson != 0 {
			info.Domains = append(info.Domains, "igibson")
		}
		if p.domains&inExtension != 0 {
			info.Domains = append(info.Domains, "extension")
		}
		if p.partner != predInvalid {
			info.Partner = registry[p.partner].name
		}
		out = append(out, info)
	}
	return out
}

func init() {
	registerTemperature()
	registerArticulation()
	registerParticles()
	registerKinematic()
	registerRelations()
}
