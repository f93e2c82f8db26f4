package kb

import (
	"encoding/json"
	"strconv"
	"strings"
)

// ValueKind is the type of a property parameter.
type ValueKind uint8

const (
	KindNull       ValueKind = iota // absent or null in the data
	KindNumber                      // a float, e.g. cook_temperature
	KindBool                        // a flag; BEHAVIOR-1K writes them as 0.0/1.0
	KindString                      // free text, e.g. a particle method
	KindSynset                      // a synset reference, resolved to an id
	KindConditions                  // a list of [state, value] conditions
	KindSubstances                  // substance → conditions (particle modifiers)
	KindOther                       // a parameter the schema does not know; see Value.Other
)

var kindNames = [...]string{"null", "number", "boolean", "string", "synset", "condition list", "substance conditions", "value"}

func (k ValueKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "value"
}

// Value is a typed parameter value.
type Value struct {
	Kind       ValueKind
	Number     float64 // KindNumber; KindBool as 0 or 1
	Text       string  // KindString; KindSynset: the synset's name
	Synset     SynsetID
	Conditions ConditionSet          // KindConditions
	Substances []SubstanceConditions // KindSubstances, in data order
	Other      any                   // KindOther: plain decoded JSON or YAML
}

// Bool is the value of a KindBool parameter.
func (v Value) Bool() bool { return v.Number != 0 }

// Condition is one requirement of a particle modifier, written [state,
// value] in the data: ["toggled_on", true] or ["saturated", "water.n.06"].
type Condition struct {
	// State is a predicate or condition name ("toggled_on", "saturated",
	// "gravity", "function"); the integer codes some data uses are
	// translated to these names.
	State string `json:"state"`
	// Value is the required truth value when the condition is boolean.
	Value bool `json:"value,omitempty"`
	// Substance is the substance the modifier must be saturated with, or
	// NoSynset for boolean conditions.
	Substance SynsetID `json:"-"`
	// SubstanceName is Substance's name, kept for output.
	SubstanceName string `json:"substance,omitempty"`
}

// ConditionSet says when a particle modifier may act on a substance.
// OmniGibson's ParticleModifier requires all listed conditions to hold.
type ConditionSet struct {
	Never      bool        // null in the data: it never acts
	Conditions []Condition // empty and not Never: it always acts
}

// SubstanceConditions is the ConditionSet for one substance.
type SubstanceConditions struct {
	Substance SynsetID
	Name      string // the substance's name
	ConditionSet
}

// Param is one named parameter of a property.
type Param struct {
	Name  string
	Value Value
}

// propertyParams are the parameters one synset gives one property.
type propertyParams struct {
	prop   Property
	params []Param
}

// paramSchema lists the parameters the engine reads, with their types.
// Data may carry others; they are kept as KindOther.
var paramSchema = map[string]map[string]ValueKind{
	"cookable": {
		"cook_temperature":                    KindNumber,
		"burn_temperature":                    KindNumber,
		"substance_cooking_derivative_synset": KindSynset,
	},
	"burnable":   {"burn_temperature": KindNumber},
	"heatable":   {"heat_temperature": KindNumber},
	"freezable":  {"freeze_temperature": KindNumber},
	"heatSource": heatSourceSchema,
	"coldSource": heatSourceSchema,
	"sliceable":  {"sliceable_derivative_synset": KindSynset},
	"diceable": {
		"uncooked_diceable_derivative_synset": KindSynset,
		"cooked_diceable_derivative_synset":   KindSynset,
	},
	"meltable": {
		"meltable_derivative_synset": KindSynset,
		"melting_temperature":        KindNumber,
	},
	"flammable": {
		"ignition_temperature": KindNumber,
		"fire_temperature":     KindNumber,
		"heating_rate":         KindNumber,
		"distance_threshold":   KindNumber,
	},
	"toggleable":      {"requires_closed": KindBool},
	"particleRemover": particleSchema,
	"particleApplier": particleSchema,
	"particleSource":  particleSchema,
	"particleSink":    particleSchema,
}

var heatSourceSchema = map[string]ValueKind{
	"temperature":         KindNumber,
	"heating_rate":        KindNumber,
	"distance_threshold":  KindNumber,
	"requires_toggled_on": KindBool,
	"requires_closed":     KindBool,
	"requires_inside":     KindBool,
	"requires_on_fire":    KindBool,
}

var particleSchema = map[string]ValueKind{
	"conditions":                   KindSubstances,
	"default_fluid_conditions":     KindConditions,
	"default_non_fluid_conditions": KindConditions,
	"default_visual_conditions":    KindConditions,
	"method":                       KindString,
}

// particleConditionCodes translates OmniGibson's ParticleModifyCondition
// enumeration, which some data writes instead of names.
var particleConditionCodes = map[int]string{0: "function", 1: "saturated", 2: "toggled_on", 3: "gravity"}

// paramDecoder turns generic values into typed parameters, resolving synset
// names and reporting type errors with their location.
type paramDecoder struct {
	src    source
	lookup func(string) (SynsetID, bool)
	p      *problems
}

// decode converts the parameters object of one property of one synset.
func (d *paramDecoder) decode(owner, prop string, obj gval) []Param {
	if obj.kind == gNull {
		return nil
	}
	if obj.kind != gObject {
		d.p.errorf(d.src.locate(obj, owner, prop), "param-type",
			"parameters of %s must be an object, found %s", prop, obj.text())
		return nil
	}
	if len(obj.keys) == 0 {
		return nil
	}
	schema := paramSchema[prop]
	params := make([]Param, 0, len(obj.keys))
	for i, name := range obj.keys {
		v, ok := d.value(owner, prop, name, schema[name], obj.vals[i])
		if ok {
			params = append(params, Param{Name: name, Value: v})
		}
	}
	return params
}

func (d *paramDecoder) value(owner, prop, name string, want ValueKind, g gval) (Value, bool) {
	wrong := func() (Value, bool) {
		d.p.errorf(d.src.locate(g, owner, prop, name), "param-type",
			"%s.%s must be a %s, found %s", prop, name, want, g.text())
		return Value{}, false
	}
	switch want {
	case KindNull, KindOther: // not in the schema: keep as is
		if g.kind == gNull {
			return Value{Kind: KindNull}, true
		}
		return Value{Kind: KindOther, Other: g.toAny()}, true
	case KindNumber:
		if g.kind != gNumber {
			return wrong()
		}
		return Value{Kind: KindNumber, Number: g.num}, true
	case KindBool:
		switch {
		case g.kind == gBool:
			return Value{Kind: KindBool, Number: g.num}, true
		case g.kind == gNumber && (g.num == 0 || g.num == 1):
			return Value{Kind: KindBool, Number: g.num}, true
		}
		return wrong()
	case KindString:
		if g.kind != gString {
			return wrong()
		}
		return Value{Kind: KindString, Text: g.str}, true
	case KindSynset:
		if g.kind != gString {
			return wrong()
		}
		id, ok := d.lookup(g.str)
		if !ok {
			d.p.errorf(d.src.locate(g, owner, prop, name), "unknown-synset",
				"%s.%s names unknown synset %q", prop, name, g.str)
			return Value{}, false
		}
		return Value{Kind: KindSynset, Text: g.str, Synset: id}, true
	case KindConditions:
		set, ok := d.conditionSet(g, owner, prop, name)
		if !ok {
			return Value{}, false
		}
		return Value{Kind: KindConditions, Conditions: set}, true
	case KindSubstances:
		if g.kind != gObject {
			return wrong()
		}
		subs := make([]SubstanceConditions, 0, len(g.keys))
		good := true
		for i, sub := range g.keys {
			id, ok := d.lookup(sub)
			if !ok {
				d.p.errorf(d.src.locate(g.vals[i], owner, prop, name, sub), "unknown-synset",
					"%s.%s names unknown substance %q", prop, name, sub)
				good = false
				continue
			}
			set, ok := d.conditionSet(g.vals[i], owner, prop, name, sub)
			if !ok {
				good = false
				continue
			}
			subs = append(subs, SubstanceConditions{Substance: id, Name: sub, ConditionSet: set})
		}
		return Value{Kind: KindSubstances, Substances: subs}, good
	}
	return wrong()
}

// conditionSet decodes null (never), [] (always) or [[state, value], ...].
func (d *paramDecoder) conditionSet(g gval, keys ...string) (ConditionSet, bool) {
	switch g.kind {
	case gNull:
		return ConditionSet{Never: true}, true
	case gList:
	default:
		d.p.errorf(d.src.locate(g, keys...), "param-type",
			"conditions must be null or a list of [state, value] pairs, found %s", g.text())
		return ConditionSet{}, false
	}
	set := ConditionSet{Conditions: make([]Condition, 0, len(g.list))}
	for _, c := range g.list {
		cond, ok := d.condition(c, keys)
		if !ok {
			return ConditionSet{}, false
		}
		set.Conditions = append(set.Conditions, cond)
	}
	return set, true
}

func (d *paramDecoder) condition(g gval, keys []string) (Condition, bool) {
	bad := func(why string) (Condition, bool) {
		d.p.errorf(d.src.locate(g, keys...), "param-type", "condition %s", why)
		return Condition{}, false
	}
	if g.kind != gList || len(g.list) != 2 {
		return bad("must be a [state, value] pair")
	}
	c := Condition{Substance: NoSynset}
	switch st := g.list[0]; st.kind {
	case gString:
		c.State = st.str
	case gNumber:
		name, ok := particleConditionCodes[int(st.num)]
		if !ok || float64(int(st.num)) != st.num {
			return bad("has unknown state code " + st.text())
		}
		c.State = name
	default:
		return bad("state must be a name or a code, found " + st.text())
	}
	switch v := g.list[1]; v.kind {
	case gBool:
		c.Value = v.boolean()
	case gNumber:
		if v.num != 0 && v.num != 1 {
			return bad("value must be a boolean or a substance, found " + v.text())
		}
		c.Value = v.num != 0
	case gString:
		id, ok := d.lookup(v.str)
		if !ok {
			d.p.errorf(d.src.locate(v, keys...), "unknown-synset", "condition %s names unknown synset %q", c.State, v.str)
			return Condition{}, false
		}
		c.Substance, c.SubstanceName = id, v.str
	default:
		return bad("value must be a boolean or a substance, found " + v.text())
	}
	return c, true
}

// Params returns the parameters id gives p, in data order, or nil. The
// slice is shared: do not modify it.
func (b *Base) Params(id SynsetID, p Property) []Param {
	if !b.valid(id) {
		return nil
	}
	for _, pp := range b.params[id] {
		if pp.prop == p {
			return pp.params
		}
	}
	return nil
}

// Param returns one parameter of id's property p.
func (b *Base) Param(id SynsetID, p Property, name string) (Value, bool) {
	for _, prm := range b.Params(id, p) {
		if prm.Name == name {
			return prm.Value, true
		}
	}
	return Value{}, false
}

func (b *Base) number(id SynsetID, p Property, name string) (float64, bool) {
	v, ok := b.Param(id, p, name)
	if !ok || v.Kind != KindNumber {
		return 0, false
	}
	return v.Number, true
}

func (b *Base) synsetParam(id SynsetID, p Property, name string) (SynsetID, bool) {
	v, ok := b.Param(id, p, name)
	if !ok || v.Kind != KindSynset {
		return NoSynset, false
	}
	return v.Synset, true
}

// CookTemperature is the cookable.cook_temperature of id, when the data
// gives one. Use Thresholds for the value with its default.
func (b *Base) CookTemperature(id SynsetID) (float64, bool) {
	if !b.Has(id, Cookable) {
		return 0, false
	}
	return b.number(id, Cookable, "cook_temperature")
}

// HeatSourceParams are the parameters of a heatSource or coldSource.
type HeatSourceParams struct {
	Temperature       float64 // °C the source drives objects toward
	HeatingRate       float64 // fraction of the difference per second
	DistanceThreshold float64 // metres, for sources that do not require inside
	RequiresToggledOn bool
	RequiresClosed    bool
	RequiresInside    bool
	RequiresOnFire    bool
}

// Reference defaults for heat sources (SEMANTICS.md §1.4.2).
const (
	DefaultHeatSourceTemperature = 200.0
	DefaultHeatingRate           = 0.04
	DefaultDistanceThreshold     = 0.2
)

// HeatSource returns id's heatSource parameters, defaults filled in; ok is
// false when id is not a heat source.
func (b *Base) HeatSource(id SynsetID) (HeatSourceParams, bool) {
	return b.sourceParams(id, HeatSource)
}

// ColdSource returns id's coldSource parameters, defaults filled in.
func (b *Base) ColdSource(id SynsetID) (HeatSourceParams, bool) {
	return b.sourceParams(id, ColdSource)
}

func (b *Base) sourceParams(id SynsetID, p Property) (HeatSourceParams, bool) {
	if !b.Has(id, p) {
		return HeatSourceParams{}, false
	}
	hp := HeatSourceParams{
		Temperature:       DefaultHeatSourceTemperature,
		HeatingRate:       DefaultHeatingRate,
		DistanceThreshold: DefaultDistanceThreshold,
	}
	for _, prm := range b.Params(id, p) {
		v := prm.Value
		switch prm.Name {
		case "temperature":
			hp.Temperature = v.Number
		case "heating_rate":
			hp.HeatingRate = v.Number
		case "distance_threshold":
			hp.DistanceThreshold = v.Number
		case "requires_toggled_on":
			hp.RequiresToggledOn = v.Bool()
		case "requires_closed":
			hp.RequiresClosed = v.Bool()
		case "requires_inside":
			hp.RequiresInside = v.Bool()
		case "requires_on_fire":
			hp.RequiresOnFire = v.Bool()
		}
	}
	return hp, true
}

// FlammableParams are the parameters of a flammable synset.
type FlammableParams struct {
	IgnitionTemperature float64
	FireTemperature     float64
	HeatingRate         float64
	DistanceThreshold   float64
}

// Flammable returns id's flammable parameters with defaults filled in.
func (b *Base) Flammable(id SynsetID) (FlammableParams, bool) {
	if !b.Has(id, Flammable) {
		return FlammableParams{}, false
	}
	t := b.Thresholds(id)
	fp := FlammableParams{
		IgnitionTemperature: t.Ignition,
		FireTemperature:     t.Fire,
		HeatingRate:         DefaultHeatingRate,
		DistanceThreshold:   DefaultDistanceThreshold,
	}
	if v, ok := b.number(id, Flammable, "heating_rate"); ok {
		fp.HeatingRate = v
	}
	if v, ok := b.number(id, Flammable, "distance_threshold"); ok {
		fp.DistanceThreshold = v
	}
	return fp, true
}

// SlicedInto is the synset a sliceable synset turns into when sliced
// (sliceable.sliceable_derivative_synset, e.g. half__apple.n.01).
func (b *Base) SlicedInto(id SynsetID) (SynsetID, bool) {
	if !b.Has(id, Sliceable) {
		return NoSynset, false
	}
	return b.synsetParam(id, Sliceable, "sliceable_derivative_synset")
}

// DicedInto is the synset a diceable synset turns into when diced, raw or
// cooked (diceable.{uncooked,cooked}_diceable_derivative_synset).
func (b *Base) DicedInto(id SynsetID, cooked bool) (SynsetID, bool) {
	if !b.Has(id, Diceable) {
		return NoSynset, false
	}
	if cooked {
		return b.synsetParam(id, Diceable, "cooked_diceable_derivative_synset")
	}
	return b.synsetParam(id, Diceable, "uncooked_diceable_derivative_synset")
}

// MeltsInto is the synset a meltable synset turns into when melted.
func (b *Base) MeltsInto(id SynsetID) (SynsetID, bool) {
	if !b.Has(id, Meltable) {
		return NoSynset, false
	}
	return b.synsetParam(id, Meltable, "meltable_derivative_synset")
}

// CooksInto is the substance a cookable substance becomes when cooked
// (cookable.substance_cooking_derivative_synset, e.g. cooked__water.n.01).
func (b *Base) CooksInto(id SynsetID) (SynsetID, bool) {
	if !b.Has(id, Cookable) {
		return NoSynset, false
	}
	return b.synsetParam(id, Cookable, "substance_cooking_derivative_synset")
}

// ParticleParams are the parameters of a particle modifier (remover,
// applier, source or sink).
type ParticleParams struct {
	Method     string
	Substances []SubstanceConditions // explicit per-substance conditions
	// The defaults for substances not listed, by kind of substance; nil
	// when the data gives none.
	DefaultFluid, DefaultNonFluid, DefaultVisual *ConditionSet
}

// ParticleModifier returns the parameters of one of the particle-modifier
// properties (ParticleRemover, ParticleApplier, ParticleSource,
// ParticleSink) of id.
func (b *Base) ParticleModifier(id SynsetID, p Property) (ParticleParams, bool) {
	if !b.Has(id, p) {
		return ParticleParams{}, false
	}
	var pp ParticleParams
	for _, prm := range b.Params(id, p) {
		v := prm.Value
		switch prm.Name {
		case "method":
			pp.Method = v.Text
		case "conditions":
			pp.Substances = v.Substances
		case "default_fluid_conditions":
			pp.DefaultFluid = &v.Conditions
		case "default_non_fluid_conditions":
			pp.DefaultNonFluid = &v.Conditions
		case "default_visual_conditions":
			pp.DefaultVisual = &v.Conditions
		}
	}
	return pp, true
}

// ParticleConditions says when modifier (with property p) acts on
// substance: its explicit entry, else the default for the substance's kind
// (visual, fluid = liquid, or other physical). ok is false when the data
// says nothing, which OmniGibson treats as "cannot modify".
func (b *Base) ParticleConditions(modifier SynsetID, p Property, substance SynsetID) (ConditionSet, bool) {
	pp, ok := b.ParticleModifier(modifier, p)
	if !ok {
		return ConditionSet{}, false
	}
	for _, sc := range pp.Substances {
		if sc.Substance == substance {
			return sc.ConditionSet, true
		}
	}
	var def *ConditionSet
	switch {
	case b.Has(substance, VisualSubstance):
		def = pp.DefaultVisual
	case b.Has(substance, Liquid):
		def = pp.DefaultFluid
	case b.Has(substance, PhysicalSubstance):
		def = pp.DefaultNonFluid
	}
	if def == nil {
		return ConditionSet{}, false
	}
	return *def, true
}

// Thresholds are the temperatures at which a synset's temperature
// predicates switch, in °C (SEMANTICS.md A5 and §1.4.3).
type Thresholds struct {
	Cook     float64 `json:"cook"`     // cooked when max temperature ≥ Cook
	Burn     float64 `json:"burn"`     // burnt when max temperature ≥ Burn
	Heat     float64 `json:"heat"`     // hot when temperature ≥ Heat
	Freeze   float64 `json:"freeze"`   // frozen when temperature ≤ Freeze
	Ignition float64 `json:"ignition"` // on fire when temperature ≥ Ignition
	Fire     float64 `json:"fire"`     // the temperature of the fire once lit
	Melt     float64 `json:"melt"`     // melts when max temperature ≥ Melt
}

// The reference defaults, used when the knowledge base gives no value.
const (
	DefaultCookTemperature     = 70.0
	DefaultBurnTemperature     = 200.0
	DefaultHeatTemperature     = 40.0
	DefaultFreezeTemperature   = 0.0
	DefaultIgnitionTemperature = 250.0
	DefaultFireTemperature     = 1000.0
	DefaultMeltTemperature     = 100.0
)

// DefaultThresholds are the reference thresholds.
var DefaultThresholds = Thresholds{
	Cook:     DefaultCookTemperature,
	Burn:     DefaultBurnTemperature,
	Heat:     DefaultHeatTemperature,
	Freeze:   DefaultFreezeTemperature,
	Ignition: DefaultIgnitionTemperature,
	Fire:     DefaultFireTemperature,
	Melt:     DefaultMeltTemperature,
}

// Thresholds returns id's thresholds: the synset's own parameters where it
// has them, the defaults otherwise. They are computed once at load, so
// this is an indexed read fit for the evaluator's hot path.
func (b *Base) Thresholds(id SynsetID) Thresholds {
	if !b.valid(id) {
		return DefaultThresholds
	}
	return b.thresholds[id]
}

func (b *Base) computeThresholds() {
	b.thresholds = make([]Thresholds, len(b.names))
	for i := range b.thresholds {
		t := DefaultThresholds
		id := SynsetID(i)
		for _, pp := range b.params[id] {
			for _, prm := range pp.params {
				if prm.Value.Kind != KindNumber {
					continue
				}
				v := prm.Value.Number
				switch pp.prop {
				case Cookable:
					switch prm.Name {
					case "cook_temperature":
						t.Cook = v
					case "burn_temperature":
						t.Burn = v
					}
				case Heatable:
					if prm.Name == "heat_temperature" {
						t.Heat = v
					}
				case Freezable:
					if prm.Name == "freeze_temperature" {
						t.Freeze = v
					}
				case Flammable:
					switch prm.Name {
					case "ignition_temperature":
						t.Ignition = v
					case "fire_temperature":
						t.Fire = v
					}
				case Meltable:
					if prm.Name == "melting_temperature" {
						t.Melt = v
					}
				default:
					if prm.Name == "burn_temperature" && b.PropertyName(pp.prop) == "burnable" {
						t.Burn = v
					}
				}
			}
		}
		b.thresholds[i] = t
	}
}

// String renders a value for text output.
func (v Value) String() string {
	switch v.Kind {
	case KindNull:
		return "null"
	case KindNumber:
		return strconv.FormatFloat(v.Number, 'g', -1, 64)
	case KindBool:
		return strconv.FormatBool(v.Bool())
	case KindString, KindSynset:
		return v.Text
	case KindConditions:
		return v.Conditions.String()
	case KindSubstances:
		parts := make([]string, len(v.Substances))
		for i, s := range v.Substances {
			parts[i] = s.Name + ": " + s.ConditionSet.String()
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	data, err := json.Marshal(v.Other)
	if err != nil {
		return "?"
	}
	return string(data)
}

func (c Condition) String() string {
	if c.SubstanceName != "" {
		return c.State + " " + c.SubstanceName
	}
	if c.Value {
		return c.State
	}
	return "not " + c.State
}

func (s ConditionSet) String() string {
	if s.Never {
		return "never"
	}
	if len(s.Conditions) == 0 {
		return "always"
	}
	parts := make([]string, len(s.Conditions))
	for i, c := range s.Conditions {
		parts[i] = c.String()
	}
	return strings.Join(parts, " and ")
}

// MarshalJSON writes a value as the JSON the data would use.
func (v Value) MarshalJSON() ([]byte, error) {
	switch v.Kind {
	case KindNull:
		return []byte("null"), nil
	case KindNumber:
		return json.Marshal(v.Number)
	case KindBool:
		return json.Marshal(v.Bool())
	case KindString, KindSynset:
		return json.Marshal(v.Text)
	case KindConditions:
		return json.Marshal(v.Conditions)
	case KindSubstances:
		// An ordered object: substance → conditions.
		var b strings.Builder
		b.WriteByte('{')
		for i, s := range v.Substances {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(s.Name)
			c, err := json.Marshal(s.ConditionSet)
			if err != nil {
				return nil, err
			}
			b.Write(k)
			b.WriteByte(':')
			b.Write(c)
		}
		b.WriteByte('}')
		return []byte(b.String()), nil
	}
	return json.Marshal(v.Other)
}

// MarshalJSON writes null (never), [] (always) or the conditions, as the
// BEHAVIOR-1K data does.
func (s ConditionSet) MarshalJSON() ([]byte, error) {
	if s.Never {
		return []byte("null"), nil
	}
	pairs := make([][2]any, len(s.Conditions))
	for i, c := range s.Conditions {
		if c.SubstanceName != "" {
			pairs[i] = [2]any{c.State, c.SubstanceName}
		} else {
			pairs[i] = [2]any{c.State, c.Value}
		}
	}
	return json.Marshal(pairs)
}
