package kb

import (
	"fmt"
	"math/bits"
	"sort"
)

// Property is an annotated ability or derived class of a synset, such as
// cookable, fillable or rigidBody. Its names match the BEHAVIOR-1K property
// names exactly. The constants below are the properties the engine knows;
// a knowledge base may name others, which are registered per Base when it
// is loaded (see Base.PropertyByName), so data is never rejected for using
// a property this package has not heard of.
type Property uint16

// The built-in properties. The first group are the derived classes (object
// types and their consequences), then the annotated abilities, then the
// surface affordances BEHAVIOR-1K gives every non-substance.
const (
	Substance Property = iota
	PhysicalSubstance
	VisualSubstance
	Liquid
	MacroPhysicalSubstance
	MicroPhysicalSubstance
	NonSubstance
	RigidBody
	SoftBody
	Cloth
	Rope
	Deformable
	Drapeable

	Breakable
	Fillable
	Flammable
	Openable
	Toggleable
	Cookable
	HeatSource
	ColdSource
	Sliceable
	Diceable
	Slicer
	Assembleable
	Meltable
	ParticleRemover
	ParticleApplier
	ParticleSource
	NeedsOrientation
	ParticleSink
	SceneObject
	WaterCook
	MixingTool
	Attachable
	Boilable
	Freezable
	Heatable
	WaterSource

	Disinfectable
	Dustyable
	Grassyable
	Moldyable
	Rustable
	Scratchable
	Stainable
	Stickyable
	Tarnishable
	Wetable
	Wrinkleable

	numBuiltinProperties
)

var builtinPropertyNames = [numBuiltinProperties]string{
	Substance:              "substance",
	PhysicalSubstance:      "physicalSubstance",
	VisualSubstance:        "visualSubstance",
	Liquid:                 "liquid",
	MacroPhysicalSubstance: "macroPhysicalSubstance",
	MicroPhysicalSubstance: "microPhysicalSubstance",
	NonSubstance:           "nonSubstance",
	RigidBody:              "rigidBody",
	SoftBody:               "softBody",
	Cloth:                  "cloth",
	Rope:                   "rope",
	Deformable:             "deformable",
	Drapeable:              "drapeable",
	Breakable:              "breakable",
	Fillable:               "fillable",
	Flammable:              "flammable",
	Openable:               "openable",
	Toggleable:             "toggleable",
	Cookable:               "cookable",
	HeatSource:             "heatSource",
	ColdSource:             "coldSource",
	Sliceable:              "sliceable",
	Diceable:               "diceable",
	Slicer:                 "slicer",
	Assembleable:           "assembleable",
	Meltable:               "meltable",
	ParticleRemover:        "particleRemover",
	ParticleApplier:        "particleApplier",
	ParticleSource:         "particleSource",
	NeedsOrientation:       "needsOrientation",
	ParticleSink:           "particleSink",
	SceneObject:            "sceneObject",
	WaterCook:              "waterCook",
	MixingTool:             "mixingTool",
	Attachable:             "attachable",
	Boilable:               "boilable",
	Freezable:              "freezable",
	Heatable:               "heatable",
	WaterSource:            "waterSource",
	Disinfectable:          "disinfectable",
	Dustyable:              "dustyable",
	Grassyable:             "grassyable",
	Moldyable:              "moldyable",
	Rustable:               "rustable",
	Scratchable:            "scratchable",
	Stainable:              "stainable",
	Stickyable:             "stickyable",
	Tarnishable:            "tarnishable",
	Wetable:                "wetable",
	Wrinkleable:            "wrinkleable",
}

// NoProperty is the value of an optional Property that is unset.
const NoProperty Property = 1<<16 - 1

// String returns the BEHAVIOR-1K name of a built-in property. Properties
// registered by a knowledge base are named by Base.PropertyName.
func (p Property) String() string {
	if p < numBuiltinProperties {
		return builtinPropertyNames[p]
	}
	return fmt.Sprintf("property(%d)", uint16(p))
}

// BuiltinProperty returns the built-in property with the given name.
func BuiltinProperty(name string) (Property, bool) {
	p, ok := builtinPropertyByName[name]
	return p, ok
}

var builtinPropertyByName = func() map[string]Property {
	m := make(map[string]Property, numBuiltinProperties)
	for p, name := range builtinPropertyNames {
		m[name] = Property(p)
	}
	return m
}()

// propertyTable is the per-Base registry: the built-in properties followed
// by any the data introduced.
type propertyTable struct {
	names  []string
	byName map[string]Property
}

func newPropertyTable() propertyTable {
	t := propertyTable{
		names:  append([]string(nil), builtinPropertyNames[:]...),
		byName: make(map[string]Property, numBuiltinProperties+8),
	}
	for name, p := range builtinPropertyByName {
		t.byName[name] = p
	}
	return t
}

// intern returns the property with this name, registering it when new.
func (t *propertyTable) intern(name []byte) Property {
	if p, ok := t.byName[string(name)]; ok {
		return p
	}
	p := Property(len(t.names))
	s := string(name)
	t.names = append(t.names, s)
	t.byName[s] = p
	return p
}

// PropertyByName returns the property with this exact name, built in or
// registered by this knowledge base's data.
func (b *Base) PropertyByName(name string) (Property, bool) {
	p, ok := b.propTable.byName[name]
	return p, ok
}

// PropertyName names p, including properties registered by the data.
func (b *Base) PropertyName(p Property) string {
	if int(p) < len(b.propTable.names) {
		return b.propTable.names[p]
	}
	return p.String()
}

// AllProperties lists every property this knowledge base knows, built-in
// ones first.
func (b *Base) AllProperties() []Property {
	ps := make([]Property, len(b.propTable.names))
	for i := range ps {
		ps[i] = Property(i)
	}
	return ps
}

// Has reports whether synset id has property p (annotated, derived or
// propagated). It is a bit test on a dense table: a few nanoseconds.
func (b *Base) Has(id SynsetID, p Property) bool {
	if uint(id) >= uint(len(b.names)) || uint(p) >= uint(b.propWords*64) {
		return false
	}
	return b.props[int(id)*b.propWords+int(p>>6)]&(1<<(p&63)) != 0
}

// HasAll reports whether id has every property in ps.
func (b *Base) HasAll(id SynsetID, ps ...Property) bool {
	for _, p := range ps {
		if !b.Has(id, p) {
			return false
		}
	}
	return true
}

// propRow is the property bitset of one synset.
func (b *Base) propRow(id SynsetID) []uint64 {
	i := int(id) * b.propWords
	return b.props[i : i+b.propWords]
}

// SynsetsWith lists the synsets that have p, in id order.
func (b *Base) SynsetsWith(p Property) []SynsetID {
	var out []SynsetID
	for id := range b.names {
		if b.Has(SynsetID(id), p) {
			out = append(out, SynsetID(id))
		}
	}
	return out
}

// PropertyInfo describes one property of one synset.
type PropertyInfo struct {
	Property Property
	Name     string
	// Inherited is true when a parent synset has the property too, so it
	// comes with the kind of thing this is rather than with this synset
	// specifically. Own properties (Inherited false) are the ones that
	// distinguish the synset from its hypernyms.
	Inherited bool
	// Params are the property's parameters as given for this synset, in
	// data order; empty when the data gives none (defaults then apply).
	Params []Param
}

// Properties lists the properties of id sorted by name, with parameters.
func (b *Base) Properties(id SynsetID) []PropertyInfo {
	if !b.valid(id) {
		return nil
	}
	row := b.propRow(id)
	var out []PropertyInfo
	for w, word := range row {
		for word != 0 {
			bit := bits.TrailingZeros64(word)
			word &^= 1 << bit
			p := Property(w*64 + bit)
			info := PropertyInfo{Property: p, Name: b.PropertyName(p), Params: b.Params(id, p)}
			for _, parent := range b.Parents(id) {
				if b.Has(parent, p) {
					info.Inherited = true
					break
				}
			}
			out = append(out, info)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// PropertyOrigins returns the most general ancestors of id (itself
// included) that have p: the synsets where the property enters the
// hierarchy on the way down to id. Empty when id lacks p.
func (b *Base) PropertyOrigins(id SynsetID, p Property) []SynsetID {
	if !b.Has(id, p) {
		return nil
	}
	var out []SynsetID
	for _, a := range append(b.Ancestors(id), id) {
		if !b.Has(a, p) {
			continue
		}
		top := true
		for _, parent := range b.Parents(a) {
			if b.Has(parent, p) {
				top = false
				break
			}
		}
		if top {
			out = append(out, a)
		}
	}
	return out
}
