package transitions

import (
	"slices"
	"sync"

	"github.com/openbddl/bddl/kb"
)

// Family is the kind of a rule: the name of the BEHAVIOR-1K transition-map
// file it belongs to (heat_cook, single_toggleable_machine, mixing_stick,
// substance_cooking, substance_watercooking, slicing, dicing, melting,
// washer), or dryer, which the reference hard-codes without a file.
type Family string

// The families, in the fixed order in which Step visits them.
const (
	HeatCook              Family = "heat_cook"
	ToggleableMachine     Family = "single_toggleable_machine"
	MixingStick           Family = "mixing_stick"
	SubstanceCooking      Family = "substance_cooking"
	SubstanceWaterCooking Family = "substance_watercooking"
	Washer                Family = "washer"
	Slicing               Family = "slicing"
	Dicing                Family = "dicing"
	Melting               Family = "melting"
	Dryer                 Family = "dryer"
)

// Families lists every family in step order.
var Families = []Family{HeatCook, ToggleableMachine, MixingStick, SubstanceCooking, SubstanceWaterCooking,
	Washer, Slicing, Dicing, Melting, Dryer}

// familyOf maps a knowledge-base rule kind to its family.
func familyOf(k kb.RuleKind) Family {
	switch k {
	case kb.RuleHeatCook:
		return HeatCook
	case kb.RuleToggleableMachine:
		return ToggleableMachine
	case kb.RuleMixingStick:
		return MixingStick
	case kb.RuleSubstanceCooking:
		return SubstanceCooking
	case kb.RuleSubstanceWaterCooking:
		return SubstanceWaterCooking
	case kb.RuleWasher:
		return Washer
	case kb.RuleSlicing:
		return Slicing
	case kb.RuleDicing:
		return Dicing
	case kb.RuleMelting:
		return Melting
	}
	return ""
}

// The reference simulator's hard-coded categories and constants
// (SEMANTICS.md B §4).
const (
	washerCategory      = "washer"
	dryerCategory       = "clothes_dryer"
	hotTubCategory      = "hot_tub"
	ovenCategory        = "oven"
	microwaveCategory   = "microwave"
	garbageSystem       = "sludge"
	waterSystem         = "water"
	MeltingTemperature  = 100.0 // °C of max temperature at which meltable objects melt
	slicerReactivationS = 2.0   // seconds a slicer must touch no sliceable to slice again (slicer_active.py REACTIVATION_DELAY)
)

// Rule is one transition rule as this package applies it: a knowledge-base
// rule with its family, plus the equipment the reference hard-codes (the
// washer and dryer machines, the slicing and mixing tools).
type Rule struct {
	Family Family
	kb.Rule
	// Machines of washer and dryer rules: the synsets of the washer and
	// clothes_dryer categories. Recipe machines are in Rule.Machines.
	Tool string // the ability of the tool that triggers it: slicer, mixingTool
	// Trigger says in plain words when the rule is tried.
	Trigger string
}

// Rules lists every rule of the knowledge base in step order: the rule
// files in the knowledge base's order (within a file, file order, which is
// the order recipes are tried in), then the slicing, dicing and melting
// rules derived from the synsets' parameters, then the dryer when the base
// maps a synset to the clothes_dryer category. Washer and dryer rules get
// the washer and dryer synsets as their machines.
func Rules(base *kb.Base) []Rule {
	return slices.Clone(rulesOf(base))
}

var rulesCache sync.Map // *kb.Base → []Rule

// rulesOf is Rules, built once per knowledge base and shared: read only.
func rulesOf(base *kb.Base) []Rule {
	if base == nil {
		return nil
	}
	if r, ok := rulesCache.Load(base); ok {
		return r.([]Rule)
	}
	r, _ := rulesCache.LoadOrStore(base, buildRules(base))
	return r.([]Rule)
}

func buildRules(base *kb.Base) []Rule {
	washer, hasWasher := base.SynsetOfCategory(washerCategory)
	var out []Rule
	for _, r := range base.Rules() {
		rule := Rule{Family: familyOf(r.Kind), Rule: r}
		switch r.Kind {
		case kb.RuleHeatCook:
			rule.Trigger = "every step its inputs are in the container on or in an active heat source; fires after timesteps consecutive steps"
		case kb.RuleToggleableMachine:
			rule.Trigger = "when the machine is switched on (off → on) with exactly its inputs inside"
		case kb.RuleMixingStick:
			rule.Tool = "mixingTool"
			rule.Trigger = "when a mixing tool starts touching the container holding exactly its input substances"
		case kb.RuleSubstanceCooking, kb.RuleSubstanceWaterCooking:
			rule.Trigger = "every step a fillable, heatable container holding its inputs is hot"
		case kb.RuleWasher:
			if hasWasher {
				rule.Machines = []kb.SynsetCount{{Synset: washer, Name: base.Name(washer), Count: 1}}
			}
			rule.Trigger = "when the washer is switched on while closed (off → on)"
		case kb.RuleSlicing:
			rule.Tool = "slicer"
			rule.Trigger = "every step the object touches a slicer while some slicer is active"
		case kb.RuleDicing:
			rule.Tool = "slicer"
			rule.Trigger = "every step the object touches a slicer while some slicer is active"
		case kb.RuleMelting:
			rule.Trigger = "every step the object's max temperature is at least 100 °C"
		}
		out = append(out, rule)
	}
	if dryer, ok := base.SynsetOfCategory(dryerCategory); ok {
		r := Rule{Family: Dryer, Trigger: "when the clothes dryer is switched on while closed (off → on)"}
		r.Name = "dryer"
		r.Derived = true
		r.Machines = []kb.SynsetCount{{Synset: dryer, Name: base.Name(dryer), Count: 1}}
		if w, ok := base.SynsetOfCategory(waterSystem); ok {
			r.Inputs = []kb.SynsetCount{{Synset: w, Name: base.Name(w), Count: 1}}
		}
		out = append(out, r)
	}
	return out
}

// FindRule returns the rule of the base with the given name (rule names
// are unique within a family; the first match in step order wins, and
// "family/name" picks one family).
func FindRule(base *kb.Base, name string) (Rule, bool) {
	fam := ""
	for i := 0; i < len(name); i++ {
		if name[i] == '/' {
			fam, name = name[:i], name[i+1:]
			break
		}
	}
	for _, r := range rulesOf(base) {
		if r.Name == name && (fam == "" || string(r.Family) == fam) {
			return r, true
		}
	}
	return Rule{}, false
}
