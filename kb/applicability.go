package kb

import (
	"fmt"
	"sort"
	"strings"
)

// Domain is a BDDL domain: the predicate vocabulary a definition uses.
type Domain uint8

const (
	// DomainOmniGibson is the BEHAVIOR-1K domain, written "omnigibson" or
	// "behavior-1k" in definitions.
	DomainOmniGibson Domain = iota + 1
	// DomainIGibson is the legacy BEHAVIOR-100 domain "igibson".
	DomainIGibson
)

func (d Domain) String() string {
	switch d {
	case DomainOmniGibson:
		return "omnigibson"
	case DomainIGibson:
		return "igibson"
	}
	return fmt.Sprintf("domain(%d)", uint8(d))
}

// ParseDomain maps a definition's (:domain NAME) to a Domain.
func ParseDomain(name string) (Domain, bool) {
	switch strings.ToLower(name) {
	case "omnigibson", "behavior-1k", "behavior1k", "behavior":
		return DomainOmniGibson, true
	case "igibson":
		return DomainIGibson, true
	}
	return 0, false
}

// ArgKind is what a predicate argument denotes.
type ArgKind uint8

const (
	ArgObject ArgKind = iota // a synset instance (object or substance)
	ArgRoom                  // a room type, as in (inroom obj kitchen)
)

// Requirement is what an argument's synset must have: every property of
// AllOf and, when AnyOf is not empty, at least one of AnyOf.
type Requirement struct {
	AllOf []Property `json:"all_of,omitempty"`
	AnyOf []Property `json:"any_of,omitempty"`
}

func (r Requirement) String() string {
	var parts []string
	for _, p := range r.AllOf {
		parts = append(parts, p.String())
	}
	if len(r.AnyOf) > 0 {
		alts := make([]string, len(r.AnyOf))
		for i, p := range r.AnyOf {
			alts[i] = p.String()
		}
		s := strings.Join(alts, " or ")
		if len(r.AnyOf) > 1 && len(parts) > 0 {
			s = "(" + s + ")"
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "anything"
	}
	return strings.Join(parts, " and ")
}

// ArgSpec describes one argument position of a predicate.
type ArgSpec struct {
	Kind ArgKind     `json:"kind"`
	Need Requirement `json:"need"`
}

// Conditional is a requirement that applies only when another argument has
// a property: covered's substance must be visual when the object is
// drapeable (cloth cannot hold physical particles).
type Conditional struct {
	If    int         `json:"if"`
	IfHas Property    `json:"if_has"`
	Arg   int         `json:"arg"`
	Need  Requirement `json:"need"`
}

// PredicateSpec is the signature and applicability rule of a predicate.
type PredicateSpec struct {
	Name string        `json:"name"`
	Args []ArgSpec     `json:"args"`
	When []Conditional `json:"when,omitempty"`
	// Attachable asks for the (child, parent) pair to be able to attach
	// according to the models' attachment links.
	Attachable bool `json:"attachable,omitempty"`
	// Note documents a caveat, e.g. that the reference simulator does not
	// implement the predicate.
	Note string `json:"note,omitempty"`
}

// Arity is the number of arguments.
func (s PredicateSpec) Arity() int { return len(s.Args) }

func obj(all []Property, any ...Property) ArgSpec {
	return ArgSpec{Kind: ArgObject, Need: Requirement{AllOf: all, AnyOf: any}}
}

func props(ps ...Property) []Property { return ps }

var (
	anyArg = obj(nil)
	nonSub = obj(props(NonSubstance))
	sub    = obj(props(Substance))
	room   = ArgSpec{Kind: ArgRoom}
	// A support or container: a rigid or soft body.
	body = obj(nil, RigidBody, SoftBody)
)

// omnigibsonPredicates follows the BEHAVIOR-1K synset–predicate alignment
// check (bddl_verification.py) with SEMANTICS.md §1.2.
var omnigibsonPredicates = []PredicateSpec{
	{Name: "cooked", Args: []ArgSpec{obj(props(NonSubstance, Cookable))}},
	{Name: "frozen", Args: []ArgSpec{obj(props(NonSubstance, Freezable))}},
	{Name: "open", Args: []ArgSpec{obj(props(RigidBody, Openable))}},
	{Name: "closed", Args: []ArgSpec{obj(props(RigidBody, Openable))}, Note: "strict-mode partner of open; not in the domain file"},
	{Name: "folded", Args: []ArgSpec{obj(props(Drapeable))}},
	{Name: "unfolded", Args: []ArgSpec{obj(props(Drapeable))}},
	{Name: "toggled_on", Args: []ArgSpec{obj(props(RigidBody, Toggleable))}},
	{Name: "hot", Args: []ArgSpec{obj(props(NonSubstance, Heatable))}},
	{Name: "on_fire", Args: []ArgSpec{obj(props(NonSubstance, Flammable))}},
	{Name: "future", Args: []ArgSpec{anyArg}},
	{Name: "real", Args: []ArgSpec{anyArg}},
	{Name: "broken", Args: []ArgSpec{obj(props(RigidBody, Breakable))}, Note: "not implemented by the reference simulator"},
	{Name: "saturated", Args: []ArgSpec{obj(props(NonSubstance, ParticleRemover)), sub}},
	{Name: "covered", Args: []ArgSpec{nonSub, sub},
		When: []Conditional{{If: 0, IfHas: Drapeable, Arg: 1, Need: Requirement{AllOf: props(VisualSubstance)}}}},
	{Name: "filled", Args: []ArgSpec{obj(props(RigidBody, Fillable)), obj(props(PhysicalSubstance))}},
	{Name: "contains", Args: []ArgSpec{obj(props(RigidBody, Fillable)), sub}},
	{Name: "empty", Args: []ArgSpec{obj(props(RigidBody, Fillable)), sub}, Note: "strict-mode partner of contains; not in the domain file"},
	{Name: "ontop", Args: []ArgSpec{nonSub, body}},
	{Name: "nextto", Args: []ArgSpec{nonSub, nonSub}},
	{Name: "under", Args: []ArgSpec{nonSub, body}},
	{Name: "touching", Args: []ArgSpec{obj(props(RigidBody)), obj(props(RigidBody))}},
	{Name: "inside", Args: []ArgSpec{nonSub, obj(props(Fillable), RigidBody, SoftBody)}},
	{Name: "overlaid", Args: []ArgSpec{obj(props(Drapeable)), obj(props(RigidBody))}},
	{Name: "attached", Args: []ArgSpec{obj(props(RigidBody)), obj(props(RigidBody))}, Attachable: true},
	{Name: "draped", Args: []ArgSpec{obj(props(Drapeable)), obj(props(RigidBody))}},
	{Name: "insource", Args: []ArgSpec{obj(nil, ParticleSource, ParticleApplier), sub}},
	{Name: "inroom", Args: []ArgSpec{obj(props(SceneObject)), room}},
	{Name: "grasped", Args: []ArgSpec{nonSub, nonSub}, Note: "not implemented by the reference simulator"},
}

// igibsonPredicates maps the legacy BEHAVIOR-100 predicates onto today's
// properties: kinematic ones as in omnigibson, state ones to the ability
// that lets an object take the state (dusty → dustyable, stained →
// stainable, sliced → sliceable). perished, screwed and timeset have no
// BEHAVIOR-1K ability; they only need a non-substance.
var igibsonPredicates = []PredicateSpec{
	{Name: "inside", Args: []ArgSpec{nonSub, obj(props(Fillable), RigidBody, SoftBody)}},
	{Name: "nextto", Args: []ArgSpec{nonSub, nonSub}},
	{Name: "ontop", Args: []ArgSpec{nonSub, body}},
	{Name: "under", Args: []ArgSpec{nonSub, body}},
	{Name: "onfloor", Args: []ArgSpec{nonSub, body}},
	{Name: "broken", Args: []ArgSpec{obj(props(NonSubstance, Breakable))}},
	{Name: "burnt", Args: []ArgSpec{obj(props(NonSubstance, Cookable))}},
	{Name: "cooked", Args: []ArgSpec{obj(props(NonSubstance, Cookable))}},
	{Name: "dusty", Args: []ArgSpec{obj(props(NonSubstance, Dustyable))}},
	{Name: "frozen", Args: []ArgSpec{obj(props(NonSubstance, Freezable))}},
	{Name: "open", Args: []ArgSpec{obj(props(NonSubstance, Openable))}},
	{Name: "perished", Args: []ArgSpec{nonSub}},
	{Name: "screwed", Args: []ArgSpec{nonSub}},
	{Name: "stained", Args: []ArgSpec{obj(props(NonSubstance, Stainable))}},
	{Name: "sliced", Args: []ArgSpec{obj(props(NonSubstance, Sliceable))}},
	{Name: "soaked", Args: []ArgSpec{obj(props(NonSubstance, Wetable))}},
	{Name: "saturated", Args: []ArgSpec{nonSub, sub}},
	{Name: "timeset", Args: []ArgSpec{nonSub}},
	{Name: "toggled_on", Args: []ArgSpec{obj(props(NonSubstance, Toggleable))}},
	{Name: "inroom", Args: []ArgSpec{nonSub, room}},
}

var predicateTables = map[Domain]map[string]PredicateSpec{
	DomainOmniGibson: indexSpecs(omnigibsonPredicates),
	DomainIGibson:    indexSpecs(igibsonPredicates),
}

func indexSpecs(specs []PredicateSpec) map[string]PredicateSpec {
	m := make(map[string]PredicateSpec, len(specs))
	for _, s := range specs {
		m[s.Name] = s
	}
	return m
}

// Predicates lists a domain's predicates sorted by name.
func Predicates(d Domain) []PredicateSpec {
	t := predicateTables[d]
	out := make([]PredicateSpec, 0, len(t))
	for _, s := range t {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// LookupPredicate returns the spec of a predicate in a domain.
func LookupPredicate(d Domain, name string) (PredicateSpec, bool) {
	s, ok := predicateTables[d][name]
	return s, ok
}

// Violation is one reason an atom does not apply to its arguments.
type Violation struct {
	// Arg is the 0-based argument the problem is with, or -1 when it is
	// with the atom as a whole (unknown predicate, wrong arity).
	Arg     int    `json:"arg"`
	Code    string `json:"code"`
	Message string `json:"message"`
	// Missing lists the required properties the argument lacks (for
	// AnyOf requirements, all the alternatives).
	Missing []Property `json:"-"`
}

func (v Violation) String() string { return v.Message }

// CheckApplicable reports why predicate pred cannot apply to arguments of
// the given synsets in domain d, or nil when it can. Room-type arguments
// (inroom's second) are not synsets: pass NoSynset there and check the
// room with IsRoomType, or use CheckAtom.
func (b *Base) CheckApplicable(d Domain, pred string, args []SynsetID) []Violation {
	spec, ok := LookupPredicate(d, pred)
	if !ok {
		return []Violation{{Arg: -1, Code: "unknown-predicate",
			Message: fmt.Sprintf("%s is not a predicate of the %s domain", pred, d)}}
	}
	if len(args) != len(spec.Args) {
		return []Violation{{Arg: -1, Code: "arity",
			Message: fmt.Sprintf("%s takes %d argument%s, got %d", pred, len(spec.Args), plural(len(spec.Args)), len(args))}}
	}
	var out []Violation
	for i, a := range spec.Args {
		if a.Kind != ArgObject {
			continue
		}
		if !b.valid(args[i]) {
			out = append(out, Violation{Arg: i, Code: "unknown-synset",
				Message: fmt.Sprintf("%s: argument %d is not a known synset", pred, i+1)})
			continue
		}
		if v, bad := b.checkRequirement(pred, i, args[i], a.Need, ""); bad {
			out = append(out, v)
		}
	}
	for _, c := range spec.When {
		if b.valid(args[c.If]) && b.valid(args[c.Arg]) && b.Has(args[c.If], c.IfHas) {
			why := fmt.Sprintf(" because %s is %s", b.names[args[c.If]], b.PropertyName(c.IfHas))
			if v, bad := b.checkRequirement(pred, c.Arg, args[c.Arg], c.Need, why); bad {
				out = append(out, v)
			}
		}
	}
	if spec.Attachable && len(out) == 0 {
		if ok, known := b.AttachmentCompatible(args[0], args[1]); known && !ok {
			out = append(out, Violation{Arg: -1, Code: "not-attachable",
				Message: fmt.Sprintf("%s: no model of %s has an attachment link that fits a model of %s",
					pred, b.names[args[0]], b.names[args[1]])})
		}
	}
	return out
}

func (b *Base) checkRequirement(pred string, i int, id SynsetID, need Requirement, why string) (Violation, bool) {
	var missing []Property
	for _, p := range need.AllOf {
		if !b.Has(id, p) {
			missing = append(missing, p)
		}
	}
	anyMissing := false
	if len(need.AnyOf) > 0 {
		anyMissing = true
		for _, p := range need.AnyOf {
			if b.Has(id, p) {
				anyMissing = false
				break
			}
		}
	}
	if len(missing) == 0 && !anyMissing {
		return Violation{}, false
	}
	var lacks []string
	for _, p := range missing {
		lacks = append(lacks, b.PropertyName(p))
	}
	if anyMissing {
		missing = append(missing, need.AnyOf...)
		alts := make([]string, len(need.AnyOf))
		for j, p := range need.AnyOf {
			alts[j] = b.PropertyName(p)
		}
		lacks = append(lacks, strings.Join(alts, " or "))
	}
	return Violation{Arg: i, Code: "inapplicable", Missing: missing,
		Message: fmt.Sprintf("%s: argument %d, %s, lacks %s (%s needs %s%s)",
			pred, i+1, b.names[id], strings.Join(lacks, " and "), pred, need, why)}, true
}

// CheckAtom is CheckApplicable for names as written in a definition:
// synset names (instance suffixes such as _1 or _* and a leading ? are
// removed) and, for room arguments, room types.
func (b *Base) CheckAtom(d Domain, pred string, args []string) []Violation {
	spec, ok := LookupPredicate(d, pred)
	if !ok || len(args) != len(spec.Args) {
		ids := make([]SynsetID, len(args))
		return b.CheckApplicable(d, pred, ids)
	}
	ids := make([]SynsetID, len(args))
	var out []Violation
	for i, a := range spec.Args {
		ids[i] = NoSynset
		if a.Kind == ArgRoom {
			if !b.IsRoomType(args[i]) {
				msg := fmt.Sprintf("%s: %s is not a known room type", pred, args[i])
				if s := Suggest(args[i], b.RoomTypes(), 1); len(s) > 0 {
					msg += fmt.Sprintf(" (did you mean %s?)", s[0])
				}
				out = append(out, Violation{Arg: i, Code: "unknown-room", Message: msg})
			}
			continue
		}
		name := SynsetOfTerm(args[i])
		id, ok := b.Lookup(name)
		if !ok {
			out = append(out, Violation{Arg: i, Code: "unknown-synset", Message: b.unknownSynsetMessage(name)})
			continue
		}
		ids[i] = id
	}
	if len(out) > 0 {
		// Judge the known arguments anyway.
		for _, v := range b.CheckApplicable(d, pred, ids) {
			if v.Code != "unknown-synset" {
				out = append(out, v)
			}
		}
		return out
	}
	return b.CheckApplicable(d, pred, ids)
}

// SynsetOfTerm returns the synset name of a term as written in a
// definition: "?apple.n.01_1", "apple.n.01_*" and "apple.n.01" all give
// "apple.n.01".
func SynsetOfTerm(term string) string {
	term = strings.TrimPrefix(term, "?")
	i := strings.LastIndexByte(term, '_')
	if i < 0 {
		return term
	}
	suffix := term[i+1:]
	if suffix == "*" {
		return term[:i]
	}
	if suffix == "" {
		return term
	}
	for _, c := range suffix {
		if c < '0' || c > '9' {
			return term
		}
	}
	// "apple.n.01_1": the part before must end in a sense number.
	base := term[:i]
	if j := strings.LastIndexByte(base, '.'); j >= 0 && j < len(base)-1 {
		for _, c := range base[j+1:] {
			if c < '0' || c > '9' {
				return term
			}
		}
		return base
	}
	return term
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
