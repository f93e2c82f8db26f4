package sampler

import (
	"slices"
	"sort"

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
	pl.need = need
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
	var fallback []kb.Model
	var lacking string
	var lackLit *literal
	// The models the reference chose for the synset, as the scene files
	// read record them (Scene.TaskModels): its sampling whitelist narrows
	// the choice to them (_import_sampleable_objects, bddl_utils.py).
	if ref := pl.chosenModels(i, in.syn, in.synset, nd, checkLinks, parent); len(ref) > 0 {
		pl.setModel(i, pickModel(pl, i, ref, nd, checkLinks))
		return nil
	}
	// The task's sampling lists narrow each category's models as the
	// reference's do (_import_sampleable_objects): a whitelisted synset
	// keeps only its listed models, a blacklist removes some. When they
	// leave no usable model (a knowledge base without the listed ones)
	// the choice is made again without them.
	sl := pl.list.of(in.synset)
	if sl != nil {
		if m, ok := pl.chooseListed(i, cats, sl, nd, checkLinks, parent); ok {
			pl.setModel(i, m)
			return nil
		}
	}
	for _, c := range cats {
		var ok []kb.Model
		for _, m := range b.Models(c) {
			anyModel = true
			if pl.leftOut(in.name, m) {
				continue
			}
			if why, lit := usable(m, nd, checkLinks, parent); why != "" {
				lacking, lackLit = why, lit
				continue
			}
			ok = append(ok, m)
		}
		if len(ok) == 0 {
			continue
		}
		// Models far from the synset's usual size (a pickup truck as a
		// container to carry) are passed over while the other categories
		// have a plausible one.
		plaus := ok[:0:0]
		for _, m := range ok {
			if !m.HasSize || pl.recorded(m) || pl.plausible(in.syn, m.Size) {
				plaus = append(plaus, m)
			}
		}
		if len(plaus) == 0 {
			if fallback == nil {
				fallback = ok
			}
			continue
		}
		pl.setModel(i, pickModel(pl, i, plaus, nd, checkLinks))
		return nil
	}
	if fallback != nil {
		pl.setModel(i, fallback[pl.rng.IntN(len(fallback))])
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

// chooseListed is chooseModel's category loop with the sampling lists
// applied: the first category, in the drawn order, with a model the lists
// keep that is usable. The lists' models are the reference's own choice,
// so their size is not checked.
func (pl *plan) chooseListed(i int, cats []string, sl *synsetLists, nd needs, checkLinks bool, parent *kb.Model) (kb.Model, bool) {
	in := &pl.inst[i]
	for _, c := range cats {
		var ok []kb.Model
		for _, m := range pl.s.base.Models(c) {
			if !sl.allows(m.Name) || pl.leftOut(in.name, m) {
				continue
			}
			if why, _ := usable(m, nd, checkLinks, parent); why != "" {
				continue
			}
			if !sl.narrows() && m.HasSize && !pl.recorded(m) && !pl.plausible(in.syn, m.Size) {
				continue
			}
			ok = append(ok, m)
		}
		if len(ok) > 0 {
			return pickModel(pl, i, ok, nd, checkLinks), true
		}
	}
	return kb.Model{}, false
}

// usable says what a model lacks for an instance with these needs (""
// when nothing) and the literal that needs it.
func usable(m kb.Model, nd needs, checkLinks bool, parent *kb.Model) (string, *literal) {
	if checkLinks && nd.fillable && !m.HasMetaLink("fillable") && !m.HasMetaLink("openfillable") {
		return "a container volume (fillable meta link)", nd.why["fillable"]
	}
	if checkLinks && nd.toggle && !m.HasMetaLink("togglebutton") {
		return "a toggle button", nd.why["togglebutton"]
	}
	if parent != nil && len(parent.FemaleAttachments) > 0 && !attachable(m, *parent) {
		return "an attachment link fitting " + parent.Name, nil
	}
	return "", nil
}

// pickModel draws one of the usable models, those with a heating
// element first for heat and cold sources.
func pickModel(pl *plan, i int, ok []kb.Model, nd needs, checkLinks bool) kb.Model {
	// After this container was swapped for want of room, the models what
	// did not fit fits in or on, when there are any.
	if needs := pl.fits[pl.inst[i].name]; len(needs) > 0 {
		var fit []kb.Model
		for _, m := range ok {
			size, _ := pl.modelSize(m)
			if fitsAll(pl.s.base, pl.inst[i].syn, mkBox(0, 0, 0, size[0], size[1], size[2]), needs) {
				fit = append(fit, m)
			}
		}
		if len(fit) > 0 {
			ok = fit
		}
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
	return ok[pl.rng.IntN(len(ok))]
}

// chosenModels are the usable models among those the reference chose
// for the synset (Sampler.taskModels), of categories of its subtree. The
// scene files read are pooled over tasks, so where the task's sampling
// lists narrow the synset only the models they keep are taken, unless
// they keep none of them.
func (pl *plan) chosenModels(i int, syn kb.SynsetID, name string, nd needs, checkLinks bool, parent *kb.Model) []kb.Model {
	names := pl.chosen[name]
	if len(names) == 0 || syn == kb.NoSynset {
		return nil
	}
	b := pl.s.base
	cats := b.CategoriesOf(syn)
	var out []kb.Model
	for _, n := range names {
		m, ok := b.ModelByName(n)
		if !ok || !slices.Contains(cats, m.Category) || pl.leftOut(pl.inst[i].name, m) {
			continue
		}
		if why, _ := usable(m, nd, checkLinks, parent); why == "" {
			out = append(out, m)
		}
	}
	if sl := pl.list.of(name); sl.narrows() {
		kept := out[:0:0]
		for _, m := range out {
			if sl.allows(m.Name) {
				kept = append(kept, m)
			}
		}
		if len(kept) > 0 {
			return kept
		}
	}
	return out
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

func (pl *plan) setModel(i int, m kb.Model) {
	in := &pl.inst[i]
	in.category, in.model = m.Category, m.Name
	in.size, in.modelScale = pl.modelSize(m)
}

// modelSize is the size of a model as it is loaded: the inventory's
// box times the scale a scene file records the reference loading it at
// (Scene.ModelScales; its sampling whitelist gives some models a
// bounding box, and _import_sampleable_objects in
// omnigibson/utils/bddl_utils.py loads them scaled to it), and that
// scale (zero when none is recorded).
func (pl *plan) modelSize(m kb.Model) (size, scale [3]float64) {
	if !m.HasSize || m.Size[0] <= 0 || m.Size[1] <= 0 || m.Size[2] <= 0 {
		return [3]float64{movableDefaultSize, movableDefaultSize, movableDefaultSize}, scale
	}
	size = m.Size
	sc, ok := pl.scales[m.Name]
	if !ok {
		// The task's sampling lists: a scale, or a bounding box the model
		// is scaled to (DatasetObject._post_load).
		if z, found := pl.list.size(m.Name); found {
			sc, ok = z.modelScaleFor(m.Size)
		}
	}
	if ok {
		scale = sc
		for k := range size {
			size[k] *= sc[k]
		}
	}
	return size, scale
}

// recorded reports whether a scene file records the reference loading
// the model rescaled: its size is then the reference's own choice, and
// plausible by definition.
func (pl *plan) recorded(m kb.Model) bool {
	if _, ok := pl.scales[m.Name]; ok {
		return true
	}
	_, ok := pl.list.size(m.Name)
	return ok
}

// Plausible sizes: a model is plausible for a synset when its largest
// dimension is within ×0.5–×2 of the synset's typical one, the median
// largest dimension over the models of the synset's own categories (else
// of its whole subtree, for an abstract synset such as container.n.01).
const (
	plausibleLow  = 0.5
	plausibleHigh = 2.0
)

func (pl *plan) plausible(syn kb.SynsetID, size [3]float64) bool {
	t := pl.s.typicalSize(syn)
	if t <= 0 {
		return true
	}
	d := max(size[0], size[1], size[2])
	return d >= plausibleLow*t && d <= plausibleHigh*t
}

// typicalSize is the synset's typical largest dimension (see plausible),
// 0 when no model has a size; computed once per synset.
func (s *Sampler) typicalSize(syn kb.SynsetID) float64 {
	if v, ok := s.typical.Load(syn); ok {
		return v.(float64)
	}
	b := s.base
	var ds []float64
	collect := func(cats []string) {
		for _, c := range cats {
			for _, m := range b.Models(c) {
				if m.HasSize && m.Size[0] > 0 && m.Size[1] > 0 && m.Size[2] > 0 {
					ds = append(ds, max(m.Size[0], m.Size[1], m.Size[2]))
				}
			}
		}
	}
	collect(b.Categories(syn))
	if len(ds) == 0 {
		collect(b.CategoriesOf(syn))
	}
	t := 0.0
	if len(ds) > 0 {
		sort.Float64s(ds)
		t = ds[len(ds)/2]
	}
	s.typical.Store(syn, t)
	return t
}

// otherContainerModel reports whether instance p, whose model the
// sampler chose, has another usable model left to swap it for: among the
// reference's chosen ones when the scene files record any, else a
// plausible one of its synset's subtree.
func (pl *plan) otherContainerModel(p int) bool {
	in := &pl.inst[p]
	if in.syn == kb.NoSynset {
		return false
	}
	var nd needs
	if p < len(pl.need) {
		nd = pl.need[p]
	}
	checkLinks := pl.s.metaLinksKnown()
	sl := pl.list.of(in.synset)
	other := func(m kb.Model) bool {
		if m.Name == in.model || !sl.allows(m.Name) || pl.leftOut(in.name, m) || !larger(pl, m, in.size) {
			return false
		}
		why, _ := usable(m, nd, checkLinks, nil)
		return why == ""
	}
	if len(pl.chosenModels(p, in.syn, in.synset, nd, checkLinks, nil)) > 0 {
		for _, m := range pl.chosenModels(p, in.syn, in.synset, nd, checkLinks, nil) {
			if other(m) {
				return true
			}
		}
		return false
	}
	b := pl.s.base
	for _, c := range b.CategoriesOf(in.syn) {
		for _, m := range b.Models(c) {
			if other(m) && (!m.HasSize || sl.narrows() || pl.recorded(m) || pl.plausible(in.syn, m.Size)) {
				return true
			}
		}
	}
	return false
}

// leftOut reports whether an earlier attempt left model m out for the
// instance (sampleIn): a model found too small, or any model no larger
// in every dimension than one that was.
func (pl *plan) leftOut(inst string, m kb.Model) bool {
	ex := pl.excludeModels[inst]
	if len(ex) == 0 {
		return false
	}
	if ex[m.Name] {
		return true
	}
	size, _ := pl.modelSize(m)
	for name := range ex {
		if o, ok := pl.s.base.ModelByName(name); ok {
			if osz, _ := pl.modelSize(o); !exceedsSorted(size, osz) {
				return true
			}
		}
	}
	return false
}

// larger reports whether model m is larger than size in some dimension
// (sorted), so swapping to it may make room.
func larger(pl *plan, m kb.Model, size [3]float64) bool {
	s, _ := pl.modelSize(m)
	return exceedsSorted(s, size)
}

// exceedsSorted reports whether a exceeds b in some dimension, both
// sorted.
func exceedsSorted(a, b [3]float64) bool {
	sa, sb := sorted3(a), sorted3(b)
	return sa[0] > sb[0] || sa[1] > sb[1] || sa[2] > sb[2]
}
