package sampler

import (
	"slices"

	"github.com/openbddl/bddl/kb"
)

// Model choice (SEMANTICS.md B §3.3 phase 5): every instance that is not
// bound to a scene object gets a category of its synset's subtree and a
// model of that category, with the meta links its literals need, and the
// model's real size from the inventory.

const (
	movableDefaultSize = 0.2 // a movable model the inventory gives no size for
)

var agentSize = [3]float64{0.5, 0.5, 1.2}

// needs are the meta links an instance's literals ask of its model.
type needs struct {
	fillable, toggle bool
	why              map[string]*literal
	// heat prefers models with a heating element for synsets that are heat
	// or cold sources; it is a preference, not a requirement.
	heat bool
}

func (pl *plan) modelNeeds() []needs {
	out := make([]needs, len(pl.inst))
	note := func(i int, what string, l *literal) {
		if out[i].why == nil {
			out[i].why = map[string]*literal{}
		}
		if _, ok := out[i].why[what]; !ok {
			out[i].why[what] = l
		}
	}
	for i := range pl.inst {
		if syn := pl.inst[i].syn; syn != kb.NoSynset && (pl.s.base.Has(syn, kb.HeatSource) || pl.s.base.Has(syn, kb.ColdSource)) {
			out[i].heat = true
		}
	}
	for k := range pl.lits {
		l := &pl.lits[k]
		if l.neg {
			continue
		}
		switch l.name {
		case "inside":
			out[l.b].fillable = true
			note(l.b, "fillable", l)
		case "filled", "contains":
			out[l.a].fillable = true
			note(l.a, "fillable", l)
		case "toggled_on":
			out[l.a].toggle = true
			note(l.a, "togglebutton", l)
		}
	}
	return out
}

// metaLinksKnown reports whether the knowledge base records meta links
// at all; without them no model can be filtered by them.
func (s *Sampler) metaLinksKnown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.metaKnown == 0 {
		s.metaKnown = 2
		for _, r := range s.base.Roots() {
			for _, m := range s.base.ModelsOf(r) {
				if len(m.MetaLinks) > 0 {
					s.metaKnown = 1
					break
				}
			}
		}
	}
	return s.metaKnown == 1
}

func (pl *plan) chooseModels() *Failure {
	b := pl.s.base
	need := pl.modelNeeds()
	checkLinks := pl.s.metaLinksKnown()
	// attachment parents before their children, so a child can pick a
	// model whose male link fits the parent's female one.
	order := make([]int, 0, len(pl.inst))
	var children []int
	parentOf := map[int]int{}
	for k := range pl.lits {
		l := &pl.lits[k]
		if l.name == "attached" && !l.neg {
			parentOf[l.a] = l.b
		}
	}
	for i := range pl.inst {
		if _, ok := parentOf[i]; ok {
			children = append(children, i)
		} else {
			order = append(order, i)
		}
	}
	order = append(order, children...)
	for _, i := range order {
		in := &pl.inst[i]
		if in.bound != nil || in.substance || !in.exists {
			continue
		}
		var parentModel *kb.Model
		if p, ok := parentOf[i]; ok && pl.inst[p].model != "" {
			if m, ok := b.ModelByName(pl.inst[p].model); ok {
				parentModel = &m
			}
		}
		if fail := pl.chooseModel(i, need[i], checkLinks, parentModel, parentOf); fail != nil {
			return fail
		}
	}
	return nil
}

func (pl *plan) chooseModel(i int, nd needs, checkLinks bool, parent *kb.Model, parentOf map[int]int) *Failure {
	b := pl.s.base
	in := &pl.inst[i]
	var cats []string
	if in.syn != kb.NoSynset {
		cats = slices.Clone(b.CategoriesOf(in.syn))
	}
	pl.rng.Shuffle(len(cats), func(x, y int) { cats[x], cats[y] = cats[y], cats[x] })
	anyModel := false
	var lacking string
	var lackLit *literal
	for _, c := range cats {
		var ok []kb.Model
		for _, m := range b.Models(c) {
			anyModel = true
			if checkLinks && nd.fillable && !m.HasMetaLink("fillable") && !m.HasMetaLink("openfillable") {
				lacking, lackLit = "a container volume (fillable meta link)", nd.why["fillable"]
				continue
			}
			if checkLinks && nd.toggle && !m.HasMetaLink("togglebutton") {
				lacking, lackLit = "a toggle button", nd.why["togglebutton"]
				continue
			}
			if parent != nil && len(parent.FemaleAttachments) > 0 && !attachable(m, *parent) {
				lacking = "an attachment link fitting " + parent.Name
				continue
			}
			ok = append(ok, m)
		}
		if len(ok) == 0 {
			continue
		}
		if nd.heat && checkLinks {
			var heating []kb.Model
			for _, m := range ok {
				if m.HasMetaLink("heatsource") {
					heating = append(heating, m)
				}
			}
			if len(heating) > 0 {
				ok = heating
			}
		}
		m := ok[pl.rng.IntN(len(ok))]
		in.category, in.model = m.Category, m.Name
		if m.HasSize && m.Size[0] > 0 && m.Size[1] > 0 && m.Size[2] > 0 {
			in.size = m.Size
		} else {
			in.size = [3]float64{movableDefaultSize, movableDefaultSize, movableDefaultSize}
		}
		return nil
	}
	if in.agent {
		in.category, in.model, in.size = "agent", "agent", agentSize
		return nil
	}
	if !anyModel {
		return &Failure{Kind: NoModel, Objects: []string{in.name}, Message: "no object model of " + in.synset + " or its descendants in the knowledge base"}
	}
	f := &Failure{Kind: NoModel, Objects: []string{in.name}, Message: "no model of " + in.synset + " has " + lacking}
	if lackLit != nil {
		f.Literal = lackLit.String()
	}
	return f
}

// attachable reports whether child has a male attachment link matching a
// female link of parent.
func attachable(child, parent kb.Model) bool {
	for _, m := range child.MaleAttachments {
		if slices.Contains(parent.FemaleAttachments, m) {
			return true
		}
	}
	return false
}
