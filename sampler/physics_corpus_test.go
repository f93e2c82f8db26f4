package sampler

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode/omnigibson"
	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// TestPhysicalCorpus samples every clean corpus definition, seeds 0–3,
// in the scenes validate --scenes finds compatible, and runs the
// independent physical checker over every configuration. It logs the
// rates and fails when they exceed the bounds.
func TestPhysicalCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("samples the whole corpus four times")
	}
	dir := corpus.Dir(t)
	base, err := kb.Load(corpus.KBDir(t))
	if err != nil {
		t.Fatal(err)
	}
	lib, err := activities.LoadDir(filepath.Join(dir, "activity_definitions"))
	if err != nil {
		t.Fatal(err)
	}
	s := New(base, predicates.Options{})
	var st physStats
	tried, ok := 0, 0
	for _, a := range lib.Activities {
		if a.Problem == nil || a.Diagnostics.HasErrors() {
			continue
		}
		rep := activities.Analyze(a.Problem, base)
		if activities.HasErrors(rep.Findings) || rep.Scenes == nil {
			continue
		}
		var scenes []string
		for _, sc := range rep.Scenes.Compatible() {
			scenes = append(scenes, sc.Scene)
		}
		for seed := uint64(0); seed < 4; seed++ {
			sc := slices.Clone(scenes)
			ShuffleScenes(sc, seed, a.Name)
			tried++
			res, err := s.Sample(Request{Activity: a.Name, Problem: a.Problem, Scenes: sc, Seed: seed})
			if err != nil {
				continue
			}
			ok++
			st.add(res, base)
		}
	}
	t.Logf("sampled %d of %d configurations (%.1f%%)", ok, tried, pct(ok, tried))
	t.Logf("physical check: %s", st.summary())
	for rule, ex := range st.examples {
		t.Logf("  %s %d, e.g. %s", rule, st.byRule[rule], strings.Join(ex, "; "))
	}
	checkPhysBounds(t, &st)
}

// checkPhysBounds fails on rates past the acceptance bounds.
func checkPhysBounds(t *testing.T, st *physStats) {
	t.Helper()
	if r := pct(st.Protruding, st.InsideFit); r > physMaxProtruding {
		t.Errorf("%.1f%% of inside placements that fit stick out of their container (want ≤ %.1f%%)", r, physMaxProtruding)
	}
	if r := pct(st.Unsupported, st.OnTop); r > physMaxUnsupported {
		t.Errorf("%.1f%% of rigid ontop placements have under %.0f%% footprint on their support (want ≤ %.1f%%)", r, 100*physSupportRatio, physMaxUnsupported)
	}
	if r := pct(st.OutOfRoom, st.Placed); r > physMaxOutOfRoom {
		t.Errorf("%.1f%% of placed objects leave their room (want ≤ %.1f%%)", r, physMaxOutOfRoom)
	}
	if r := pct(st.Overlapping, st.Placed); r > physMaxOverlapping {
		t.Errorf("%.1f%% of placed objects overlap another (want ≤ %.1f%%)", r, physMaxOverlapping)
	}
}

// The bounds the corpus runs are held to (percent).
const (
	physMaxProtruding  = 0.5
	physMaxUnsupported = 0.5
	physMaxOutOfRoom   = 0.5
	physMaxOverlapping = 0.5
)

// ogTask is one OmniGibson task: its definition, its scene file and its
// instance files.
type ogTask struct {
	name, template string
	problem        *bddl.Problem
	instances      []string
}

func ogTasks(t *testing.T) []ogTask {
	dir := corpus.OmniGibsonDir(t)
	paths, _ := filepath.Glob(filepath.Join(dir, "*", "*_template-partial_rooms.json"))
	var out []ogTask
	for _, path := range paths {
		src, err := os.ReadFile(filepath.Join(corpus.OmniGibsonPackage(t).Activities, filepath.Base(filepath.Dir(path)), "problem0.bddl"))
		if err != nil {
			t.Fatal(err)
		}
		p, diags := bddl.ParseProblem("problem0.bddl", src)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		inst, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*_instances", "*-tro_state.json"))
		out = append(out, ogTask{name: filepath.Base(filepath.Dir(path)), template: path, problem: p, instances: inst})
	}
	if len(out) == 0 {
		t.Skip("no OmniGibson task with a scene file")
	}
	return out
}

// furnitureChildren are the instances :init puts on top of or inside
// something that is not a floor (nor the agent).
func furnitureChildren(p *bddl.Problem, base *kb.Base) (children, parents []string) {
	synOf := map[string]string{}
	for _, d := range p.Objects {
		for _, in := range d.Instances {
			synOf[in.Key()] = d.Type.Key()
		}
	}
	isA := func(inst, anc string) bool {
		a, ok1 := base.Lookup(synOf[inst])
		b, ok2 := base.Lookup(anc)
		return ok1 && ok2 && base.IsA(a, b)
	}
	for _, f := range p.Init {
		at, ok := f.(*bddl.Atom)
		if !ok || len(at.Args) != 2 {
			continue
		}
		if k := at.Pred.Key(); k != "ontop" && k != "inside" {
			continue
		}
		b := at.Args[1].Key()
		if isA(b, "floor.n.01") || isA(b, "agent.n.01") {
			continue
		}
		children = append(children, at.Args[0].Key())
		parents = append(parents, synOf[b])
	}
	return children, parents
}

// TestPhysicalOmniGibson samples the reference's own tasks in their real
// layouts, in the same scenes laid out from the knowledge base alone, and
// in the other compatible scenes, runs the physical checker, and compares
// the height of objects on furniture with the reference's own recorded
// instances of the same tasks.
func TestPhysicalOmniGibson(t *testing.T) {
	tasks := ogTasks(t)
	base, err := kb.Load(corpus.KBDir(t))
	if err != nil {
		t.Fatal(err)
	}
	var ref []float64
	refBy := map[string][]float64{}
	var real, laid, same physStats
	var sizes [3]modelFit // real layouts, laid-out scenes, laid out with the knowledge base alone
	s := New(base, predicates.Options{})
	// kbOnly has read no scene file: what the knowledge base alone gives.
	kbOnly := New(base, predicates.Options{})
	for _, task := range tasks {
		refSize, refCats := referenceModels(t, task, base)
		sc, err := ReadTemplate(base, task.template)
		if err != nil {
			t.Fatal(err)
		}
		s.AddScene(sc)
		// The reference's heights: root link above the floor of the room
		// under it, over every recorded instance.
		children, parents := furnitureChildren(task.problem, base)
		floorAt := func(x, y float64) float64 {
			z := 0.0
			for i, r := range sc.Rooms {
				f := r.Floor
				if x >= f.Min[0] && x <= f.Max[0] && y >= f.Min[1] && y <= f.Max[1] || i == 0 {
					z = f.Max[2]
				}
			}
			return z
		}
		for _, path := range task.instances {
			in, err := omnigibson.ReadInstance(path)
			if err != nil {
				t.Fatal(err)
			}
			for k, c := range children {
				if o, ok := in.Objects[c]; ok && o.HasPose {
					h := o.Pos[2] - floorAt(o.Pos[0], o.Pos[1])
					ref = append(ref, h)
					refBy[parents[k]] = append(refBy[parents[k]], h)
				}
			}
		}
		rep := activities.Analyze(task.problem, base, activities.OnlyRules("no-scene"))
		var kbScenes []string
		if rep.Scenes != nil {
			for _, c := range rep.Scenes.Compatible() {
				kbScenes = append(kbScenes, c.Scene)
			}
		}
		for seed := uint64(0); seed < physSeeds; seed++ {
			if res, err := s.Sample(Request{Activity: task.name, Problem: task.problem, Scenes: []string{sc.Name}, Seed: seed}); err == nil {
				real.add(res, base)
				sizes[0].add(res, base, refSize, refCats)
			} else {
				t.Logf("%s in its own scene, seed %d: %v", task.name, seed, firstLine(err.Error()))
			}
			order := slices.Clone(kbScenes)
			ShuffleScenes(order, seed, task.name)
			if res, err := s.Sample(Request{Activity: task.name, Problem: task.problem, Scenes: order, Seed: seed}); err == nil {
				laid.add(res, base)
				sizes[1].add(res, base, refSize, refCats)
			}
			if res, err := kbOnly.Sample(Request{Activity: task.name, Problem: task.problem, Scenes: order, Seed: seed}); err == nil {
				sizes[2].add(res, base, refSize, refCats)
			}
			if res, err := kbOnly.Sample(Request{Activity: task.name, Problem: task.problem, Scenes: []string{sc.Name}, Seed: seed}); err == nil {
				same.add(res, base)
			} else {
				t.Logf("%s laid out in %s, seed %d: %v", task.name, sc.Name, seed, firstLine(err.Error()))
			}
		}
	}
	med, low := medianLow(ref)
	t.Logf("reference instances: %d objects on furniture, median height %.2f m, below 0.3 m %.0f%%", len(ref), med, 100*low)
	t.Logf("real layouts: %s", real.summary())
	for rule, ex := range real.examples {
		t.Logf("  %s %d, e.g. %s", rule, real.byRule[rule], strings.Join(ex, "; "))
	}
	t.Logf("laid-out scenes: %s", laid.summary())
	t.Logf("the reference's scenes laid out from the knowledge base alone: %s", same.summary())
	for k, v := range laid.byParent {
		m, _ := medianLow(v)
		m2, _ := medianLow(real.byParent[k])
		m3, _ := medianLow(refBy[k])
		t.Logf("   on/in %s: %d laid out at %.2f m, %d in real layouts at %.2f m, reference %.2f m", k, len(v), m, len(real.byParent[k]), m2, m3)
	}
	for rule, ex := range laid.examples {
		t.Logf("  %s %d, e.g. %s", rule, laid.byRule[rule], strings.Join(ex, "; "))
	}
	for k, name := range []string{"real layouts", "laid-out scenes", "laid-out scenes, knowledge base alone"} {
		f := &sizes[k]
		t.Logf("%s: %d objects of the reference's synsets: %.1f%% of the reference's category, %.1f%% within ×0.5–×2 of its size; outside: %s",
			name, f.n, pct(f.sameCat, f.n), pct(f.sizeOK, f.n), strings.Join(f.bad, "; "))
		// The reference narrows the models of some synsets and rescales
		// some (its sampling whitelist: a 0.27 m broom model at ×3). The
		// scene files record its result, and s has read them
		// (ReadTemplate, AddScene), for the laid-out scenes too; kbOnly
		// has only the embedded whitelist (DefaultLists), which names
		// these tasks.
		if pct(f.sizeOK, f.n) < physMinSizeOK {
			t.Errorf("%s: only %.1f%% of objects within ×0.5–×2 of the reference's size for their synset", name, pct(f.sizeOK, f.n))
		}
	}
	checkPhysBounds(t, &real)
	checkPhysBounds(t, &laid)
	checkPhysBounds(t, &same)
	// The height bound holds where the scene is the reference's: in the
	// real layouts, where the furniture is the scene file's (boxes
	// approximated by episode/omnigibson) and the in-room instances are
	// bound where the reference bound them (SceneObject.Binding), and in
	// the same scenes laid out from the knowledge base alone (its model
	// list, the sampler's layout). Over 16 seeds, as a few configurations
	// decide a shelf for many objects (six rashers on one tray). In the
	// other compatible scenes the furniture is other models (a 1.68 m
	// fridge where the reference's is 1.96 m): their median is reported,
	// and only the share below 0.3 m is bounded.
	for _, c := range []struct {
		name   string
		st     *physStats
		median bool
	}{{"real layouts", &real, true}, {"the reference's scenes laid out", &same, true}, {"other laid-out scenes", &laid, false}} {
		m, l := medianLow(c.st.furnitureZ)
		if diff := m - med; c.median && (diff > physMaxHeightDiff || diff < -physMaxHeightDiff) || l > physMaxLow {
			t.Errorf("%s: objects on furniture at a median %.2f m (%.0f%% below 0.3 m), the reference's at %.2f m", c.name, m, 100*l, med)
		}
	}
}

const (
	physMinSizeOK     = 99.0
	physSeeds         = 16
	physMaxHeightDiff = 0.15
	physMaxLow        = 0.25
)

// referenceModels reads what the reference chose for the task's objects
// in its own scene file: per synset, the largest dimension of each model
// (inventory size × scale) and the categories.
func referenceModels(t *testing.T, task ogTask, base *kb.Base) (map[string][]float64, map[string]map[string]bool) {
	tm, err := omnigibson.ReadTemplate(task.template)
	if err != nil {
		t.Fatal(err)
	}
	synOf := map[string]string{}
	for _, d := range task.problem.Objects {
		for _, in := range d.Instances {
			synOf[in.Key()] = d.Type.Key()
		}
	}
	size, cats := map[string][]float64{}, map[string]map[string]bool{}
	for _, b := range tm.Bindings {
		o, ok := tm.Object(b.Name)
		syn := synOf[strings.ToLower(b.Instance)]
		if !ok || syn == "" {
			continue
		}
		m, ok := base.ModelByName(o.Category + "-" + o.Model)
		if !ok || !m.HasSize {
			continue
		}
		sc := o.Scale
		if sc == ([3]float64{}) {
			sc = [3]float64{1, 1, 1}
		}
		size[syn] = append(size[syn], max(m.Size[0]*sc[0], m.Size[1]*sc[1], m.Size[2]*sc[2]))
		if cats[syn] == nil {
			cats[syn] = map[string]bool{}
		}
		cats[syn][o.Category] = true
	}
	return size, cats
}

// modelFit counts sampled objects against the reference's choice for
// their synset.
type modelFit struct {
	n, sameCat, sizeOK int
	bad                []string
}

func (f *modelFit) add(res *Result, base *kb.Base, refSize map[string][]float64, refCats map[string]map[string]bool) {
	for _, o := range res.Objects {
		ref := refSize[o.Synset]
		if o.SceneObject != "" || !o.Placed || len(ref) == 0 || o.Category == "agent" {
			continue
		}
		m, ok := base.ModelByName(o.Model)
		if !ok || !m.HasSize {
			continue
		}
		f.n++
		if refCats[o.Synset][o.Category] {
			f.sameCat++
		}
		med, _ := medianLow(ref)
		ms := o.ModelScale
		d := max(m.Size[0]*ms[0], m.Size[1]*ms[1], m.Size[2]*ms[2]) * o.Scale
		if d >= 0.5*med && d <= 2*med {
			f.sizeOK++
		} else if len(f.bad) < 5 {
			f.bad = append(f.bad, fmt.Sprintf("%s %s %.2f m vs %.2f m", o.Name, o.Model, d, med))
		}
	}
}
