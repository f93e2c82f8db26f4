package transitions

import (
	"fmt"
	"strings"

	"github.com/openbddl/bddl/kb"
)

// Describe renders the rule on one line: "heat_cook sugar_cookies:
// sugar_cookie_dough.n.01 [(not (cooked ...))] → 6 sugar_cookie.n.01 ...".
func (r Rule) Describe() string {
	switch r.Family {
	case Dryer:
		return fmt.Sprintf("dryer %s: the clothes dryer (%s) dries its load of %s", r.Name, names(r.Machines), names(r.Inputs))
	case Washer:
		return r.Rule.Describe()
	}
	s := r.Rule.Describe()
	if r.Tool != "" {
		s += " (tool: any " + r.Tool + ")"
	}
	return s
}

func names(cs []kb.SynsetCount) string {
	if len(cs) == 0 {
		return "nothing"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Name
	}
	return strings.Join(parts, " or ")
}

func counted(cs []kb.SynsetCount) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Name
		if c.Count != 1 {
			parts[i] = fmt.Sprintf("%d %s", c.Count, c.Name)
		}
	}
	return strings.Join(parts, ", ")
}

// ExplainLine is one line of an explanation: a label (needs, and, fires,
// makes, never) and its text.
type ExplainLine struct {
	Label string `json:"label"`
	Text  string `json:"text"`
}

// Explain says in plain words what the rule needs, when it fires and what
// it makes, as this package applies it: a title line, then the lines of
// ExplainLines.
func Explain(base *kb.Base, r Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", r.Family, r.Name)
	for _, l := range ExplainLines(base, r) {
		fmt.Fprintf(&b, "  %-7s %s\n", l.Label, l.Text)
	}
	return b.String()
}

// ExplainLines is Explain as labelled lines.
func ExplainLines(base *kb.Base, r Rule) []ExplainLine {
	var out []ExplainLine
	line := func(label, text string) { out = append(out, ExplainLine{label, text}) }
	states := func(ss []kb.StateLiteral) string {
		if len(ss) == 0 {
			return ""
		}
		parts := make([]string, len(ss))
		for i, s := range ss {
			parts[i] = s.String()
		}
		return " with " + strings.Join(parts, ", ")
	}
	container := "any fillable container"
	if len(r.Containers) > 0 {
		container = "a " + names(r.Containers)
	}
	inIt := " (its box centre inside the container's box, or on top of it)"
	switch r.Family {
	case HeatCook:
		line("needs", counted(r.Inputs)+states(r.InputStates)+" in "+container+inIt)
		src := "any heat source"
		if len(r.HeatSources) > 0 {
			src = "a " + names(r.HeatSources)
		}
		extra := ""
		for _, h := range r.HeatSources {
			hp, ok := base.HeatSource(h.Synset)
			if !ok {
				hp, ok = base.ColdSource(h.Synset)
			}
			if ok {
				var req []string
				if hp.RequiresToggledOn {
					req = append(req, "toggled on")
				}
				if hp.RequiresClosed {
					req = append(req, "closed")
				}
				if hp.RequiresInside {
					req = append(req, "with the container inside it")
				} else {
					req = append(req, fmt.Sprintf("with the container on it or within %g m", hp.DistanceThreshold))
				}
				extra = " (" + strings.Join(req, ", ") + ")"
				break
			}
		}
		line("and", src+" that is active"+extra)
		steps := "at once"
		if r.Timesteps > 1 {
			steps = fmt.Sprintf("after %d consecutive steps (counted per recipe: another container executing it on the same step restarts the count)", r.Timesteps)
		}
		line("fires", "while that holds, "+steps)
	case ToggleableMachine:
		m := "any fillable, toggleable machine"
		if len(r.Machines) > 0 {
			m = "a " + names(r.Machines)
		}
		line("needs", "exactly "+counted(r.Inputs)+states(r.InputStates)+" inside "+m+" (nothing else in it)")
		line("fires", "on the step the machine is switched on (off → on); other contents become sludge")
	case MixingStick:
		line("needs", "exactly the substances "+counted(r.Inputs)+" in "+container)
		line("fires", "on the step a mixing tool starts touching the container; other contents become sludge")
	case SubstanceCooking, SubstanceWaterCooking:
		line("needs", counted(r.Inputs)+" in a fillable, heatable container")
		line("fires", "every step the container is hot")
	case Washer:
		switch {
		case r.Never:
			line("never", "the washer never removes "+names(r.Inputs))
		case len(r.Solvents) == 0:
			line("needs", names(r.Inputs)+" on the load or in the drum of a "+names(r.Machines))
		default:
			line("needs", names(r.Inputs)+" on the load or in the drum of a "+names(r.Machines)+", and any of "+names(r.Solvents))
		}
		line("fires", "on the step the washer is switched on while closed (off → on); the load comes out wet only with GPU dynamics (off by default)")
	case Dryer:
		line("needs", "a load inside a "+names(r.Machines))
		line("fires", "on the step the dryer is switched on while closed (off → on)")
		line("makes", "the load no longer saturated with or covered in "+names(r.Inputs)+"; the drum empty of it")
		return out
	case Slicing, Dicing:
		line("needs", counted(r.Inputs)+states(r.InputStates)+" touching an object with the slicer ability, while some slicer is active")
		line("fires", "every step that holds; a slicer that touched a sliceable object is inactive until it has touched no sliceable object for 2 s")
	case Melting:
		line("needs", counted(r.Inputs)+fmt.Sprintf(" whose max temperature is at least %g °C", MeltingTemperature))
		line("fires", "every step that holds")
	}
	if r.Family == Washer {
		if !r.Never {
			line("makes", "the load no longer covered in "+names(r.Inputs)+"; the drum empty of it")
		}
		return out
	}
	where := "on top of the container"
	switch r.Family {
	case Slicing:
		where = "where the object was (its box cut in two along its longest horizontal axis); one step later they have its temperatures and cooked state"
	case Dicing, Melting:
		where = "where the object was (in the container it was in, on what it lay on)"
	case SubstanceCooking, SubstanceWaterCooking, MixingStick:
		where = "in the container"
	case ToggleableMachine, HeatCook:
		if len(r.Outputs) > 0 && base.IsSubstance(r.Outputs[0].Synset) {
			where = "in the container"
		} else {
			where = "on top of the container, with their states, one step after the rule fires"
		}
	}
	line("makes", counted(r.Outputs)+states(r.OutputStates)+", "+where+"; the inputs are used up")
	return out
}
