package activities

import (
	"fmt"
	"strings"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

// Synset–predicate alignment: kb.Base.CheckApplicable holds the table
// (cooked needs nonSubstance and cookable, filled a rigid fillable and a
// physical substance, ...). Every atom of :init and :goal is checked once,
// with quantified variables typed by their declaration.

// atomRef is one atom of :init or :goal with its resolved arguments.
type atomRef struct {
	atom *bddl.Atom
	pred string
	args []Arg
	init bool
}

// atoms lists every atom of :init then :goal (computed once).
func (c *Context) atoms() []atomRef {
	if c.cache.atoms != nil {
		return c.cache.atoms
	}
	out := make([]atomRef, 0, len(c.Init)+len(c.Goal))
	defer func() { c.cache.atoms = out }()
	for k := range c.Init {
		l := &c.Init[k]
		out = append(out, atomRef{l.Atom, l.Pred, l.Args, true})
	}
	for k := range c.Goal {
		g := &c.Goal[k]
		out = append(out, atomRef{g.Atom, g.Pred, g.Args, false})
	}
	return out
}

// violation is a kb.Violation found on one atom.
type violation struct {
	ref atomRef
	v   kb.Violation
}

// applicability checks every atom once and keeps the violations.
func (c *Context) applicability() []violation {
	if c.cache.violations != nil {
		return *c.cache.violations
	}
	var out []violation
	defer func() { c.cache.violations = &out }()
	if c.Domain == 0 {
		return nil
	}
	var ids [4]kb.SynsetID
	for _, ref := range c.atoms() {
		spec, ok := kb.LookupPredicate(c.Domain, ref.pred)
		if !ok || spec.Arity() != len(ref.args) || len(ref.args) > len(ids) {
			continue // the checker reports unknown predicates and arity
		}
		known := true
		for i, a := range spec.Args {
			ids[i] = kb.NoSynset
			if a.Kind != kb.ArgObject {
				continue
			}
			arg := ref.args[i]
			if (arg.Kind != ArgInstance && arg.Kind != ArgVariable) || arg.Synset == kb.NoSynset {
				known = false // unknown synsets and names are reported by the checker
				break
			}
			ids[i] = arg.Synset
		}
		if !known {
			continue
		}
		for _, v := range c.Base.CheckApplicable(c.Domain, ref.pred, ids[:len(ref.args)]) {
			out = append(out, violation{ref, v})
		}
	}
	return out
}

// alignmentFix suggests, per predicate, what authors usually meant.
var alignmentFix = map[string]string{
	"inside":     "inside needs a container (fillable) parent; use ontop for a surface",
	"ontop":      "ontop needs an object on a rigid or soft body; substances are placed with filled, covered or contains",
	"under":      "under needs an object under a rigid or soft body",
	"filled":     "filled needs a rigid fillable container and a physical substance; use covered for visual substances",
	"contains":   "contains needs a rigid fillable container and a substance",
	"covered":    "covered needs an object and a substance; cloth holds only visual substances (use saturated for liquids)",
	"saturated":  "saturated needs a particle remover (sponge, towel, cloth) and a substance",
	"cooked":     "only cookable objects cook; a cooked substance is its own synset (cooked__rice.n.01)",
	"open":       "only openable rigid objects open",
	"toggled_on": "only toggleable rigid objects switch on",
	"insource":   "insource needs a particle source or applier (sink, faucet, sprayer) and a substance",
	"inroom":     "only scene objects (furniture, floors, appliances) are placed with inroom; place other objects on them",
	"overlaid":   "overlaid needs a drapeable object (cloth) on a rigid body",
	"draped":     "draped needs a drapeable object (cloth) on a rigid body",
	"touching":   "touching needs two rigid bodies",
	"nextto":     "nextto needs two objects, not substances",
}

var ruleInapplicable = &Rule{
	Code: "inapplicable", Name: "alignment", Severity: bddl.Error,
	Doc: "each predicate applies to its arguments' synsets by their properties (cooked: nonSubstance and cookable; " +
		"open: rigid openable; filled: rigid fillable and physical substance; ontop: nonSubstance on a rigid or soft " +
		"body; ...; see kb.Predicates), in :init and :goal, variables typed by their declaration",
	Fix: "use a synset with the needed properties, or the predicate that fits",
	Check: func(c *Context) {
		for _, v := range c.applicability() {
			if v.v.Code != "inapplicable" {
				continue
			}
			r := v.ref.atom.Range
			if v.v.Arg >= 0 && v.v.Arg < len(v.ref.args) {
				r = v.ref.args[v.v.Arg].Term.Range
			}
			fix, ok := alignmentFix[v.ref.pred]
			if !ok {
				fix = "use a synset with the needed properties, or the predicate that fits"
			}
			c.Report(r, fmt.Sprintf("%s: %s", atomText(v.ref.atom), trimPred(v.v.Message, v.ref.pred)), fix)
		}
	},
}

var ruleNotAttachable = &Rule{
	Code: "not-attachable", Name: "alignment", Severity: bddl.Error,
	Doc: "(attached child parent) names an attachable pair: some model of the child has a male attachment link that " +
		"fits a female link of some model of the parent (knowledge-base attachment data; skipped when it has none)",
	Fix: "attach the child to a parent its models fit, or use another relation",
	Check: func(c *Context) {
		for _, v := range c.applicability() {
			if v.v.Code != "not-attachable" {
				continue
			}
			c.Report(v.ref.atom.Range, fmt.Sprintf("%s: %s", atomText(v.ref.atom), trimPred(v.v.Message, v.ref.pred)),
				"pick a parent whose models have a matching female attachment link (bddl kb show lists a model's links)")
		}
	},
}

var ruleUnknownRoom = &Rule{
	Code: "unknown-room", Name: "alignment", Severity: bddl.Error,
	Doc: "the room argument of inroom is a room type of the knowledge base",
	Fix: "use a known room type such as kitchen, living_room or bathroom",
	Check: func(c *Context) {
		if c.Domain == 0 || len(c.Base.RoomTypes()) == 0 {
			return
		}
		for _, ref := range c.atoms() {
			spec, ok := kb.LookupPredicate(c.Domain, ref.pred)
			if !ok || spec.Arity() != len(ref.args) {
				continue
			}
			for i, a := range spec.Args {
				if a.Kind != kb.ArgRoom {
					continue
				}
				arg := ref.args[i]
				name := arg.Term.Key()
				if arg.Kind == ArgConstant && c.Base.IsRoomType(name) {
					continue
				}
				fix := "use one of the room types: " + list(c.Base.RoomTypes(), 8)
				if s := kb.Suggest(name, c.Base.RoomTypes(), 1); len(s) > 0 {
					fix = "did you mean " + s[0] + "?"
				}
				what := "is not a room type of the knowledge base"
				if arg.Kind != ArgConstant {
					what = "is not a room type: the second argument of inroom names a type of room, such as kitchen"
				}
				c.Report(arg.Term.Range, fmt.Sprintf("%s %s", arg.Term.Text(), what), fix)
			}
		}
	},
}

var ruleNotAnInstance = &Rule{
	Code: "not-an-instance", Name: "alignment", Severity: bddl.Error,
	Doc: "object arguments are instances or variables, not bare names (room types belong only in inroom)",
	Fix: "name a declared instance, or bind a variable with a quantifier",
	Check: func(c *Context) {
		if c.Domain == 0 {
			return
		}
		for _, ref := range c.atoms() {
			spec, ok := kb.LookupPredicate(c.Domain, ref.pred)
			if !ok || spec.Arity() != len(ref.args) {
				continue
			}
			for i, a := range spec.Args {
				arg := ref.args[i]
				if a.Kind != kb.ArgObject || arg.Kind != ArgConstant || (ref.init && i == 0) {
					continue // the checker reports a constant first argument in :init
				}
				c.Report(arg.Term.Range, fmt.Sprintf("%s is not an instance: argument %d of %s is an object", arg.Term.Text(), i+1, ref.pred),
					"name an instance declared in :objects, or a variable bound by a quantifier")
			}
		}
	},
}

// trimPred drops the "pred: " the knowledge base starts its messages with,
// as the finding names the atom already.
func trimPred(msg, pred string) string {
	if rest, ok := strings.CutPrefix(msg, pred+": "); ok {
		return rest
	}
	return msg
}
