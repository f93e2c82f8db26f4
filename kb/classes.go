package kb

// Every leaf synset has one object type: how the simulator represents it.
// The type determines the derived classes the predicate rules talk about
// (substance, nonSubstance, deformable, drapeable, ...). BEHAVIOR-1K data
// already lists these classes as properties; the YAML loader derives them
// from each synset's `type` with the table below, so both sources answer
// Has(id, NonSubstance) the same way.

// objectTypes are the object types, each with the classes it implies.
var objectTypes = []struct {
	name    string
	classes []Property
}{
	{"rigidBody", []Property{NonSubstance, RigidBody}},
	{"softBody", []Property{NonSubstance, SoftBody, Deformable}},
	{"cloth", []Property{NonSubstance, Cloth, Deformable, Drapeable}},
	{"rope", []Property{NonSubstance, Rope, Deformable, Drapeable}},
	{"liquid", []Property{Substance, PhysicalSubstance, Liquid, Boilable}},
	{"macroPhysicalSubstance", []Property{Substance, PhysicalSubstance, MacroPhysicalSubstance}},
	{"microPhysicalSubstance", []Property{Substance, PhysicalSubstance, MicroPhysicalSubstance}},
	{"visualSubstance", []Property{Substance, VisualSubstance}},
}

// objectTypeProperties are the properties that name an object type.
var objectTypeProperties = []Property{
	RigidBody, SoftBody, Cloth, Rope, Liquid, MacroPhysicalSubstance, MicroPhysicalSubstance, VisualSubstance,
}

// surfaceAffordances are the states BEHAVIOR-1K lets every non-substance
// take (it can get dusty, stained, wet, ...); the data gives all of them to
// every nonSubstance synset, so the YAML loader does the same.
var surfaceAffordances = []Property{
	Disinfectable, Dustyable, Grassyable, Moldyable, Rustable, Scratchable,
	Stainable, Stickyable, Tarnishable, Wetable, Wrinkleable,
}

// ObjectTypeNames lists the valid object types.
func ObjectTypeNames() []string {
	out := make([]string, len(objectTypes))
	for i, t := range objectTypes {
		out[i] = t.name
	}
	return out
}

func objectTypeClasses(name string) ([]Property, bool) {
	for _, t := range objectTypes {
		if t.name == name {
			return t.classes, true
		}
	}
	return nil, false
}

// ObjectType returns id's object type ("rigidBody", "cloth", "liquid",
// ...), or "" for a non-leaf synset whose descendants have different types.
func (b *Base) ObjectType(id SynsetID) string {
	for _, p := range objectTypeProperties {
		if b.Has(id, p) {
			return p.String()
		}
	}
	return ""
}

// IsSubstance reports whether id is a substance (a particle system such as
// water or dust) rather than an object.
func (b *Base) IsSubstance(id SynsetID) bool { return b.Has(id, Substance) }

// Classes lists the derived classes id belongs to, in the order of the
// built-in property constants.
func (b *Base) Classes(id SynsetID) []Property {
	var out []Property
	for p := Substance; p <= Drapeable; p++ {
		if b.Has(id, p) {
			out = append(out, p)
		}
	}
	if b.Has(id, SceneObject) {
		out = append(out, SceneObject)
	}
	if b.Has(id, Fillable) {
		out = append(out, Fillable)
	}
	return out
}
