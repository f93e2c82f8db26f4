package sampler

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// inst is one instance while it is being sampled.
type inst struct {
	name      string
	synset    string
	syn       kb.SynsetID
	substance bool
	agent     bool
	cloth     bool
	wildcard  string // the wildcard it expands, if any
	roomType  string // from inroom
	bound     *SceneObject
	room      *Room
	category  string
	model     string
	size      [3]float64
	exists    bool
	placed    bool
	box       predicates.Box
	yaw       float64
	parent    int
	rel       string
	flatCloth float64 // thickness of an overlaid cloth on top of this object
	scale     float64 // the size factor it was shrunk by to fit, 0 when not
	// modelScale is the recorded scale its model is loaded at (zero: 1).
	modelScale [3]float64
	st         objectStates
}

// wildDecl is a wildcard of :objects (cabinet.n.01_*).
type wildDecl struct {
	key, name, synset string
	syn               kb.SynsetID
	roomType          string
}

// plan is one attempt at sampling an activity in a scene.
type plan struct {
	s     *Sampler
	req   Request
	scene *Scene
	rng   *rand.Rand
	inst  []inst
	index map[string]int
	wild  map[string][]int
	wdecl []wildDecl
	lits  []literal
	rooms []*Room // chosen room instance per room type, in order of first use
	// bodies per room: everything that takes space.
	bodies map[*Room][]body
	bySub  map[int][]int // literal indices by instance
	need   []needs       // the meta links each instance's model needs
	geo    *geometry
	// near are the bodies a placement in progress can meet (in nearRoom).
	near     []body
	nearRoom *Room
	// exclude are scene objects this attempt may not bind.
	exclude map[*SceneObject]bool
	// excludeModels are models left out per instance name; deferShrink
	// makes an object that would be shrunk fail instead, naming its full
	// container in out, so the caller can swap it (sampleIn).
	excludeModels map[string]map[string]bool
	deferShrink   bool
	out           attemptOut
	// fits are, per container or support instance, what earlier attempts
	// found no room for in or on the one they had: a swap prefers
	// candidates (scene objects, models) they fit (fitsAll).
	fits map[string][]fitNeed
	// surfaces are the recorded support surfaces (Sampler.supportSurfaces).
	surfaces map[string]float64
	// scales are the recorded model scales (Sampler.modelScales).
	scales map[string][3]float64
	// chosen are the reference's chosen models (Sampler.taskModels).
	chosen map[string][]string
	// list is the sampling lists of the task in this scene (nil: none),
	// listsDigest the digest of the lists it comes from.
	list        *sceneLists
	listsDigest string
}

// body is something that takes space in a room: a scene object (inst
// -1 when no instance is bound to it) or a placed instance.
type body struct {
	box  predicates.Box
	inst int
	slab bool // a floor or ceiling
}

// maxContainerSwaps bounds how many times a configuration is drawn again
// with a scene object left out because what goes in or on it did not fit.
const maxContainerSwaps = 3

// maxDeferredSwaps bounds how many times a configuration is drawn again,
// before any object is shrunk, with the container or support that had no
// room for it swapped: another scene object of the synset, or another
// model of a container the sampler places itself.
const maxDeferredSwaps = 3

// swapSet is what the attempts so far left out: scene objects, and
// models per instance.
type swapSet struct {
	objects map[*SceneObject]bool
	models  map[string]map[string]bool
	fits    map[string][]fitNeed
}

// add leaves out what an attempt found full, and records what did not
// fit there; false when it names nothing.
func (x *swapSet) add(o attemptOut) bool {
	if o.need.container != "" {
		if x.fits == nil {
			x.fits = map[string][]fitNeed{}
		}
		x.fits[o.need.container] = append(x.fits[o.need.container], o.need)
	}
	switch {
	case o.full != nil:
		if x.objects == nil {
			x.objects = map[*SceneObject]bool{}
		}
		x.objects[o.full] = true
	case o.fullModel != "":
		if x.models == nil {
			x.models = map[string]map[string]bool{}
		}
		if x.models[o.fullInst] == nil {
			x.models[o.fullInst] = map[string]bool{}
		}
		x.models[o.fullInst][o.fullModel] = true
	default:
		return false
	}
	return true
}

func (x *swapSet) empty() bool { return len(x.objects) == 0 && len(x.models) == 0 }

// attemptOut is why an attempt failed, when a container was full: the
// scene object, or the instance and model of a container the sampler
// placed; deferred when it failed rather than shrink an object.
type attemptOut struct {
	full                *SceneObject
	fullInst, fullModel string
	deferred            bool
	need                fitNeed
}

// sampleIn samples the request in a scene. An object that fits in or on
// its container or support only shrunk first has the container swapped:
// the configuration is drawn again with that scene object left out, so
// another of the room's objects of the synset (another cabinet) stands
// for the instance, or, for a container the sampler places itself, with
// that model left out, so another model of its synset is drawn; the
// reference likewise keeps only the candidates on which every child
// samples (SEMANTICS.md B §3.3 phase 6). When swapping does not help, it
// starts over with shrinking allowed, and when even that finds no space
// in or on a scene object, leaves that object out as before.
func (s *Sampler) sampleIn(req Request, sc *Scene) (*Result, *Failure) {
	var ex swapSet
	deferShrink := true
	var first *Failure
	deferrals, swaps := 0, 0
	for {
		res, fail, o := s.sampleOnce(req, sc, &ex, deferShrink)
		if fail == nil {
			return res, nil
		}
		if deferShrink {
			if o.deferred && deferrals < maxDeferredSwaps && ex.add(o) {
				deferrals++
				continue
			}
			if o.deferred || !ex.empty() {
				// Swapping did not help: start over as if it had not been
				// tried, shrinking allowed.
				deferShrink, ex = false, swapSet{}
				continue
			}
			deferShrink = false // this attempt was an ordinary one
		}
		if first == nil {
			first = fail
		}
		if fail.Kind != NoSpace || o.full == nil || swaps == maxContainerSwaps {
			return nil, first
		}
		ex.add(attemptOut{full: o.full})
		swaps++
	}
}

// sampleOnce is one attempt, with what earlier ones left out.
func (s *Sampler) sampleOnce(req Request, sc *Scene, ex *swapSet, deferShrink bool) (*Result, *Failure, attemptOut) {
	lists := s.samplingLists()
	pl := &plan{s: s, req: req, scene: sc, rng: newRand(req.Seed, req.Activity, sc.Name, req.Index),
		index: map[string]int{}, wild: map[string][]int{}, bodies: map[*Room][]body{}, geo: &s.geo,
		exclude: ex.objects, excludeModels: ex.models, fits: ex.fits, deferShrink: deferShrink, scales: s.modelScales(), chosen: s.taskModels(), surfaces: s.supportSurfaces(),
		list: lists.forTask(req.Activity, sc.Name)}
	if pl.list != nil {
		pl.listsDigest = lists.Digest()
	}
	res, fail := pl.run()
	return res, fail, pl.out
}

func (pl *plan) run() (*Result, *Failure) {
	req := pl.req
	if fail := pl.declare(); fail != nil {
		return nil, fail
	}
	if fail := pl.chooseRooms(); fail != nil {
		return nil, fail
	}
	var fail *Failure
	if req.Goal {
		return pl.sampleGoal()
	}
	if pl.lits, fail = pl.initLiterals(req.Problem.Init); fail != nil {
		return nil, fail
	}
	if fail := pl.realize(); fail != nil {
		return nil, fail
	}
	return pl.finish(false)
}

// realize turns the plan's literals into a configuration: existence,
// models, placement, states.
func (pl *plan) realize() *Failure {
	pl.bySub = map[int][]int{}
	for i := range pl.lits {
		l := &pl.lits[i]
		pl.bySub[l.a] = append(pl.bySub[l.a], i)
		if l.b >= 0 && l.b != l.a {
			pl.bySub[l.b] = append(pl.bySub[l.b], i)
		}
	}
	if fail := pl.existence(); fail != nil {
		return fail
	}
	if fail := pl.fixedRelations(); fail != nil {
		return fail
	}
	if fail := pl.chooseModels(); fail != nil {
		return fail
	}
	if fail := pl.place(); fail != nil {
		return fail
	}
	return pl.setStates()
}

// declare reads :objects and the inroom literals.
func (pl *plan) declare() *Failure {
	b := pl.s.base
	agentSyn, _ := b.Lookup("agent.n.01")
	for _, d := range pl.req.Problem.Objects {
		synset := d.Type.Key()
		syn, ok := b.Lookup(synset)
		if !ok {
			syn = kb.NoSynset
		}
		for _, in := range d.Instances {
			if bddl.IsWildcard(in.Key()) {
				pl.wdecl = append(pl.wdecl, wildDecl{key: in.Key(), name: in.Name, synset: synset, syn: syn})
				continue
			}
			pl.add(inst{name: in.Name, synset: synset, syn: syn})
		}
	}
	for i := range pl.inst {
		in := &pl.inst[i]
		if in.syn != kb.NoSynset {
			in.substance = b.IsSubstance(in.syn)
			in.cloth = b.Has(in.syn, kb.Cloth)
			in.agent = agentSyn != kb.NoSynset && b.IsA(in.syn, agentSyn)
		}
	}
	// inroom, read from the definition before wildcards are expanded.
	var walk func(f bddl.Formula, neg bool) *Failure
	walk = func(f bddl.Formula, neg bool) *Failure {
		switch f := f.(type) {
		case *bddl.And:
			for _, x := range f.Xs {
				if fail := walk(x, neg); fail != nil {
					return fail
				}
			}
		case *bddl.Not:
			return walk(f.X, !neg)
		case *bddl.Atom:
			if f.Pred.Key() != "inroom" || len(f.Args) != 2 {
				return nil
			}
			if neg {
				return &Failure{Kind: Unsupported, Literal: "(not (inroom " + f.Args[0].Name + " " + f.Args[1].Name + "))",
					Objects: []string{f.Args[0].Name}, Message: "a negated inroom cannot be sampled: say which room the object is in"}
			}
			key, room := f.Args[0].Key(), f.Args[1].Key()
			if bddl.IsWildcard(key) {
				for i := range pl.wdecl {
					if pl.wdecl[i].key == key {
						pl.wdecl[i].roomType = room
					}
				}
				return nil
			}
			i, ok := pl.index[key]
			if !ok {
				return &Failure{Kind: Unsupported, Message: "inroom of unknown instance " + f.Args[0].Name}
			}
			if pl.inst[i].roomType != "" && pl.inst[i].roomType != room {
				return &Failure{Kind: Contradiction, Objects: []string{pl.inst[i].name},
					Message: fmt.Sprintf("%s is in both %s and %s", pl.inst[i].name, pl.inst[i].roomType, room)}
			}
			pl.inst[i].roomType = room
		}
		return nil
	}
	for _, f := range pl.req.Problem.Init {
		if fail := walk(f, false); fail != nil {
			return fail
		}
	}
	return nil
}

func (pl *plan) add(in inst) int {
	in.parent = -1
	in.st = newObjectStates()
	pl.inst = append(pl.inst, in)
	i := len(pl.inst) - 1
	pl.index[bddl.Fold(in.name)] = i
	return i
}

// candidatesIn lists the unbound objects of a room that can stand for an
// instance of syn: its category's synset is syn or a descendant.
func (pl *plan) candidatesIn(r *Room, syn kb.SynsetID, taken map[*SceneObject]bool) []*SceneObject {
	var out []*SceneObject
	if syn == kb.NoSynset {
		return nil
	}
	for _, o := range r.Objects {
		if !taken[o] && !pl.exclude[o] && o.Synset != kb.NoSynset && pl.s.base.IsA(o.Synset, syn) {
			out = append(out, o)
		}
	}
	return out
}

// chooseRooms picks, per room type, a room instance in which every
// in-room instance of that type gets its own scene object (maximum
// bipartite matching), binds them, and expands the wildcards to the
// matching objects left in the room.
func (pl *plan) chooseRooms() *Failure {
	var types []string
	byType := map[string][]int{}
	for i := range pl.inst {
		if t := pl.inst[i].roomType; t != "" {
			if _, ok := byType[t]; !ok {
				types = append(types, t)
			}
			byType[t] = append(byType[t], i)
		}
	}
	for _, w := range pl.wdecl {
		if w.roomType != "" {
			if _, ok := byType[w.roomType]; !ok {
				types = append(types, w.roomType)
				byType[w.roomType] = nil
			}
		}
	}
	for _, t := range types {
		var rooms []*Room
		for _, r := range pl.scene.Rooms {
			if r.Type == t {
				rooms = append(rooms, r)
			}
		}
		if len(rooms) == 0 {
			var names []string
			for _, i := range byType[t] {
				names = append(names, pl.inst[i].name)
			}
			return &Failure{Kind: NoRoom, Objects: names, Message: "the scene has no " + t}
		}
		pl.rng.Shuffle(len(rooms), func(i, j int) { rooms[i], rooms[j] = rooms[j], rooms[i] })
		// The room holding the most of the scene objects a scene file
		// binds to these instances first: the reference's own choice.
		// Then the room with the most instances that have an object the
		// task's sampling lists keep.
		sort.SliceStable(rooms, func(a, b int) bool {
			if ba, bb := pl.boundHere(rooms[a], byType[t]), pl.boundHere(rooms[b], byType[t]); ba != bb {
				return ba > bb
			}
			return pl.listedHere(rooms[a], byType[t]) > pl.listedHere(rooms[b], byType[t])
		})
		var best []string
		chosen := false
		for _, r := range rooms {
			insts := byType[t]
			cands := make([][]*SceneObject, len(insts))
			for k, i := range insts {
				cands[k] = pl.candidatesIn(r, pl.inst[i].syn, nil)
				pl.rng.Shuffle(len(cands[k]), func(a, b int) { cands[k][a], cands[k][b] = cands[k][b], cands[k][a] })
				// Of a room's floor pieces, the largest first: a
				// simulator scene splits floors into strips under walls
				// and doorways, where nothing stands.
				sort.SliceStable(cands[k], func(a, b int) bool {
					return floorArea(cands[k][a]) > floorArea(cands[k][b])
				})
				// The objects the task's sampling lists keep before the
				// others: the reference keeps only those
				// (_build_inroom_object_scope in bddl_utils.py filters
				// in-room candidates by the whitelist and blacklist);
				// here the others stay as a fallback, as a laid-out scene
				// need not have the listed models.
				if sl := pl.list.of(pl.inst[i].synset); sl != nil {
					sort.SliceStable(cands[k], func(a, b int) bool {
						return sl.allows(cands[k][a].Model) && !sl.allows(cands[k][b].Model)
					})
				}
				// The object a scene file binds to this very instance
				// before all (SceneObject.Binding).
				name := strings.ToLower(pl.inst[i].name)
				sort.SliceStable(cands[k], func(a, b int) bool {
					return cands[k][a].Binding == name && cands[k][b].Binding != name
				})
				// After a container was swapped for want of room, the
				// objects what did not fit fits in or on before all.
				if needs := pl.fits[pl.inst[i].name]; len(needs) > 0 {
					fit := make(map[*SceneObject]bool, len(cands[k]))
					for _, o := range cands[k] {
						fit[o] = fitsAll(pl.s.base, o.Synset, o.Box, needs)
					}
					sort.SliceStable(cands[k], func(a, b int) bool { return fit[cands[k][a]] && !fit[cands[k][b]] })
				}
			}
			match := matchObjects(cands)
			var missing []string
			for k, m := range match {
				if m == nil {
					missing = append(missing, pl.inst[insts[k]].name)
				}
			}
			if len(missing) > 0 {
				if best == nil || len(missing) < len(best) {
					best = append([]string{r.Name}, missing...)
				}
				continue
			}
			taken := map[*SceneObject]bool{}
			for k, i := range insts {
				pl.bind(i, match[k], r)
				taken[match[k]] = true
			}
			pl.expandWildcards(t, r, taken)
			pl.rooms = append(pl.rooms, r)
			chosen = true
			break
		}
		if !chosen {
			return &Failure{Kind: NoRoom, Objects: best[1:],
				Message: fmt.Sprintf("no %s holds an object for each of its in-room instances (closest: %s lacks one for %s)", t, best[0], strings.Join(best[1:], ", "))}
		}
	}
	// Wildcards without a room stand for nothing.
	for _, w := range pl.wdecl {
		if _, ok := pl.wild[w.key]; !ok {
			pl.wild[w.key] = []int{}
		}
	}
	return nil
}

// boundHere counts the instances whose scene-file binding
// (SceneObject.Binding) is an object of room r.
func (pl *plan) boundHere(r *Room, insts []int) int {
	n := 0
	for _, o := range r.Objects {
		if o.Binding == "" {
			continue
		}
		for _, i := range insts {
			if strings.EqualFold(pl.inst[i].name, o.Binding) {
				n++
			}
		}
	}
	return n
}

// listedHere counts the instances of which room r has an object the
// task's sampling lists name and keep.
func (pl *plan) listedHere(r *Room, insts []int) int {
	n := 0
	for _, i := range insts {
		sl := pl.list.of(pl.inst[i].synset)
		if !sl.narrows() {
			continue
		}
		for _, o := range r.Objects {
			if o.Synset != kb.NoSynset && sl.allows(o.Model) && pl.s.base.IsA(o.Synset, pl.inst[i].syn) {
				n++
				break
			}
		}
	}
	return n
}

// floorArea is a floor piece's area, 0 for anything else.
func floorArea(o *SceneObject) float64 {
	if o.Kind != FloorPart {
		return 0
	}
	e := o.Box.Extent()
	return e[0] * e[1]
}

func (pl *plan) bind(i int, o *SceneObject, r *Room) {
	in := &pl.inst[i]
	in.bound, in.room = o, r
	in.category, in.model = o.Category, o.Model
	in.box, in.yaw, in.placed = o.Box, o.Yaw, true
	ext := o.Box.Extent()
	in.size = ext
}

// expandWildcards binds each wildcard of the room type to every matching
// object left in the room, as instances numbered after the declared ones.
func (pl *plan) expandWildcards(t string, r *Room, taken map[*SceneObject]bool) {
	for _, w := range pl.wdecl {
		if w.roomType != t {
			continue
		}
		prefix := strings.TrimSuffix(w.key, "*")
		next := 1
		for key := range pl.index {
			if strings.HasPrefix(key, prefix) {
				if n, err := strconv.Atoi(key[len(prefix):]); err == nil && n >= next {
					next = n + 1
				}
			}
		}
		ids := []int{}
		for _, o := range pl.candidatesIn(r, w.syn, taken) {
			name := strings.TrimSuffix(w.name, "*") + strconv.Itoa(next)
			next++
			i := pl.add(inst{name: name, synset: w.synset, syn: w.syn, wildcard: w.name, roomType: t})
			pl.inst[i].cloth = w.syn != kb.NoSynset && pl.s.base.Has(w.syn, kb.Cloth)
			pl.bind(i, o, r)
			taken[o] = true
			ids = append(ids, i)
		}
		pl.wild[w.key] = ids
	}
}

// wildcardNames is the expansion in the form predicates.Options takes.
func (pl *plan) wildcardNames() map[string][]string {
	out := map[string][]string{}
	for _, w := range pl.wdecl {
		names := []string{}
		for _, i := range pl.wild[w.key] {
			names = append(names, pl.inst[i].name)
		}
		out[w.name] = names
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// matchObjects is a maximum bipartite matching of instances to candidate
// objects by augmenting paths (Kuhn's algorithm); nil where an instance
// is left without one.
func matchObjects(cands [][]*SceneObject) []*SceneObject {
	owner := map[*SceneObject]int{}
	match := make([]*SceneObject, len(cands))
	var try func(i int, seen map[*SceneObject]bool) bool
	try = func(i int, seen map[*SceneObject]bool) bool {
		for _, o := range cands[i] {
			if seen[o] {
				continue
			}
			seen[o] = true
			j, taken := owner[o]
			if !taken || try(j, seen) {
				owner[o] = i
				match[i] = o
				return true
			}
		}
		return false
	}
	for i := range cands {
		try(i, map[*SceneObject]bool{})
	}
	return match
}

// existence applies future and real, and checks that no other literal
// asks for a state of an object that does not exist.
func (pl *plan) existence() *Failure {
	for i := range pl.inst {
		pl.inst[i].exists = true
	}
	for i := range pl.lits {
		l := &pl.lits[i]
		switch l.name {
		case "future":
			pl.inst[l.a].exists = l.neg
		case "real":
			pl.inst[l.a].exists = !l.neg
		}
	}
	for i := range pl.lits {
		l := &pl.lits[i]
		switch l.name {
		case "future", "real", "insource", "inroom":
			continue
		}
		if l.neg {
			continue // an atom over a missing object is false: its negation holds
		}
		for _, x := range []int{l.a, l.b} {
			if x >= 0 && !pl.inst[x].exists {
				return failf(Contradiction, l, nil, "%s does not exist yet (future), so no positive literal can hold of it", pl.inst[x].name)
			}
		}
	}
	for i := range pl.inst {
		if !pl.inst[i].exists && pl.inst[i].bound != nil {
			return &Failure{Kind: Contradiction, Objects: []string{pl.inst[i].name}, Message: pl.inst[i].name + " is both in a room and future"}
		}
	}
	return nil
}

// fixedRelations checks the kinematic literals between two instances
// bound to scene objects: scene objects stay where the scene has them, so
// such a literal holds or the scene cannot host the activity.
func (pl *plan) fixedRelations() *Failure {
	for k := range pl.lits {
		l := &pl.lits[k]
		if l.b < 0 || !isKinematic(l.name) || l.name == "attached" || l.name == "onfloor" {
			continue
		}
		a, b := &pl.inst[l.a], &pl.inst[l.b]
		if a.bound == nil || b.bound == nil {
			continue
		}
		if pl.geo.holds(l.name, a.box, b.box, pl.enclosure(l.b)) == l.neg {
			return failf(NoRoom, l, nil, "scene objects %s (%s) and %s (%s) do not stand so in this scene, and scene objects stay where they are",
				a.name, a.bound.Name, b.name, b.bound.Name)
		}
	}
	return nil
}
