package omnigibson

import (
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func corpusKB(t testing.TB) *kb.Base {
	t.Helper()
	dir := corpus.KBDir(t)
	b, err := kbCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var kbMu sync.Mutex
var kbBases = map[string]*kb.Base{}

func kbCache(dir string) (*kb.Base, error) {
	kbMu.Lock()
	defer kbMu.Unlock()
	if b, ok := kbBases[dir]; ok {
		return b, nil
	}
	b, err := kb.Load(dir)
	if err == nil {
		kbBases[dir] = b
	}
	return b, err
}

// snapshotKB is the knowledge base of the instances' own BEHAVIOR-1K
// snapshot (it differs from the package's in a few model boxes).
func snapshotKB(t testing.TB) *kb.Base {
	t.Helper()
	b, err := kbCache(corpus.OmniGibsonPackage(t).Data)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func readFileForTest(p string) ([]byte, error) { return os.ReadFile(p) }

func readProblem(t testing.TB, path string) *bddl.Problem {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, diags := bddl.ParseProblem(path, src)
	if diags.HasErrors() {
		t.Fatalf("%s: %v", path, diags)
	}
	return p
}

// taskDirs lists the task folders of the OmniGibson sample.
func taskDirs(t testing.TB) []string { return corpus.OmniGibsonTaskDirs(t) }

type tally struct{ trueN, falseN, unknownN, approx int }

// TestInitErrorModel: every shared instance, with both knowledge bases,
// under the error model (default) and two-valued (strict): the golden
// files record what is decided true, false and unknown. The simulator
// validated :init on every instance, so a literal false is a wrong
// answer; unknown is an honest one.
func TestInitErrorModel(t *testing.T) {
	for _, tc := range []struct {
		name   string
		kb     func(testing.TB) *kb.Base
		strict bool
	}{
		{"package-kb", corpusKB, false},
		{"snapshot-kb", snapshotKB, false},
		{"package-kb-strict", corpusKB, true},
		{"snapshot-kb-strict", snapshotKB, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			corpus.OmniGibsonDir(t)
			run := agreementWith(t, tc.kb(t), Options{}, predicates.Options{Geometry: predicates.Geometry{IgnoreError: tc.strict}})
			sum, _ := summary(run)
			t.Log("\n" + sum)
			falseN := 0
			for _, s := range run.stats {
				falseN += s.falseN
			}
			if !corpus.Recorded(t) || !corpus.RecordedOmniGibson(t) {
				// Another corpus: the bound, at most 0.5 % of the
				// instances with a literal false.
				if !tc.strict && 200*run.instFalse > run.instances {
					t.Errorf("%d of %d instances with a literal false", run.instFalse, run.instances)
				}
				return
			}
			golden(t, "errors-"+tc.name+".golden", sum+"\nnot true (predicate, instance, literal, value, detail):\n"+strings.Join(run.dis, "\n")+"\n")
			// The bound on the shared instances: none false.
			if !tc.strict && falseN > 0 {
				t.Errorf("%d :init literals false", falseN)
			}
		})
	}
}

// TestInitRobust: the estimate must not turn confidently wrong when the
// data it rests on is a little off, as another snapshot's inventory is
// (one of make_pizza's doughs differs by 8 cm between the two shared
// knowledge bases) or as the simulator's poses jitter. Every model's size
// is changed by up to 1, 3 and 5 % (a fixed pseudo-random factor per
// model and axis), then every object's root link moved by up to 3 and
// 5 mm per axis (the same in the template and the instances), two draws
// each, with both knowledge bases: at most 0.5 % of the instances may
// have a literal false, the bound for held-out data (unknown is
// the honest answer), and, up to 3 % and 5 mm, at least 95 % must still
// be decided true.
func TestInitRobust(t *testing.T) {
	corpus.OmniGibsonDir(t)
	bases := []struct {
		name string
		kb   *kb.Base
	}{{"package", corpusKB(t)}, {"snapshot", snapshotKB(t)}}
	defer func() { perturbSize, perturbPose = nil, nil }()
	// noise is the draw's factor in [-1, 1] for key and axis k.
	noise := func(key string, k int) float64 {
		h := fnv.New64a()
		h.Write([]byte(key))
		return float64((h.Sum64()>>(16*k))&0xffff)/65535*2 - 1
	}
	type perturbation struct {
		name    string
		amp     float64
		size    bool
		decided bool // held to 95 % decided true
	}
	for _, base := range bases {
		for _, p := range []perturbation{
			{"sizes off by up to 1 %", 0.01, true, true},
			{"sizes off by up to 3 %", 0.03, true, true},
			{"sizes off by up to 5 %", 0.05, true, false},
			{"poses off by up to 3 mm", 0.003, false, true},
			{"poses off by up to 5 mm", 0.005, false, true},
		} {
			for _, seed := range []string{"a", "b"} {
				perturbSize, perturbPose = nil, nil
				if p.size {
					perturbSize = func(category, model string, size *[3]float64) {
						for k := range size {
							size[k] *= 1 + p.amp*noise(seed+category+model, k)
						}
					}
				} else {
					perturbPose = func(name string, pos *[3]float64) {
						for k := range pos {
							pos[k] += p.amp * noise(seed+name, k)
						}
					}
				}
				run := agreementWith(t, base.kb, Options{}, predicates.Options{})
				t.Logf("%s knowledge base, %s (draw %s): %d of %d instances true, %d with a literal false", base.name, p.name, seed, run.instTrue, run.instances, run.instFalse)
				if 200*run.instFalse > run.instances {
					t.Errorf("%s knowledge base, %s (draw %s): %d of %d instances with a literal false", base.name, p.name, seed, run.instFalse, run.instances)
				}
				if p.decided && 20*run.instTrue < 19*run.instances {
					t.Errorf("%s knowledge base, %s (draw %s): %d of %d instances true (< 95 %%)", base.name, p.name, seed, run.instTrue, run.instances)
				}
			}
		}
	}
}

// agreementRun is what agreement measures over every shared instance.
type agreementRun struct {
	stats     map[string]*tally // per predicate
	parents   map[string]*tally // per "predicate parent-category" of binary geometric literals
	dis       []string          // one line per literal not true
	instances int
	instTrue  int // instances whose every :init literal is true
	instFalse int // instances with an :init literal false
	failing   []string
}

// agreement converts every instance of every shared task folder, as
// written (both templates), and evaluates :init literal by literal.
func agreement(t *testing.T, opts Options) *agreementRun {
	return agreementWith(t, corpusKB(t), opts, predicates.Options{})
}

// agreementWith is agreement with a knowledge base and compile options.
func agreementWith(t *testing.T, base *kb.Base, opts Options, popts predicates.Options) *agreementRun {
	run := &agreementRun{stats: map[string]*tally{}, parents: map[string]*tally{}}
	count := func(m map[string]*tally, k string, l *InitLiteral, approx bool) {
		s := m[k]
		if s == nil {
			s = &tally{}
			m[k] = s
		}
		if approx {
			s.approx++
		}
		switch l.Value {
		case predicates.True:
			s.trueN++
		case predicates.False:
			s.falseN++
		default:
			s.unknownN++
		}
	}
	for _, dir := range taskDirs(t) {
		task, err := FindTask(dir)
		if err != nil {
			t.Fatal(err)
		}
		if task.Definition == "" {
			t.Fatalf("%s: no definition found in the checkout around it: %+v", dir, task)
		}
		if len(task.Instances) == 0 {
			continue // a template-only task: TestTemplateOnlyTasks
		}
		prob := readProblem(t, task.Definition)
		tmpl, err := ReadTask(task)
		if err != nil {
			t.Fatal(err)
		}
		o := opts
		o.Activity = task.Definition
		c, err := NewConverter(tmpl, prob, task.Definition, base, o)
		if err != nil {
			t.Fatal(err)
		}
		eval := NewInitEvaluatorOptions(prob, base, popts)
		category := func(inst string) string {
			if name, ok := c.binding[inst]; ok {
				if so, ok := tmpl.Object(name); ok {
					return so.Category
				}
			}
			return "?"
		}
		for _, ip := range task.Instances {
			in, err := ReadInstance(ip)
			if err != nil {
				t.Fatal(err)
			}
			h, rep, err := c.Convert(in)
			if err != nil {
				t.Fatalf("%s: %v", ip, err)
			}
			lits, err := eval.Eval(h)
			if err != nil {
				t.Fatalf("%s: %v", ip, err)
			}
			run.instances++
			ok, anyFalse := true, false
			for i := range lits {
				l := &lits[i]
				approx := rep.IsApproximate(l.Pred, l.Args)
				count(run.stats, l.Pred, l, approx)
				if l.Geometric && len(l.Args) == 2 {
					count(run.parents, l.Pred+" "+category(l.Args[1]), l, approx)
				}
				anyFalse = anyFalse || l.Value == predicates.False
				if l.Value != predicates.True {
					ok = false
					run.dis = append(run.dis, fmt.Sprintf("%s\t%s\t%s\t%s\t%s", l.Pred, Stem(ip), l.Literal, l.Value, l.Detail))
				}
			}
			if anyFalse {
				run.instFalse++
			}
			if ok {
				run.instTrue++
			} else {
				run.failing = append(run.failing, filepath.Base(dir)+"/"+Stem(ip))
			}
		}
	}
	sort.Strings(run.dis)
	return run
}

func writeTallies(b *strings.Builder, stats map[string]*tally) {
	var keys []string
	for p := range stats {
		keys = append(keys, p)
	}
	sort.Strings(keys)
	for _, p := range keys {
		s := stats[p]
		n := s.trueN + s.falseN + s.unknownN
		fmt.Fprintf(b, "%-28s true %5d  false %4d  unknown %4d  (%.1f%%)  approximate %5d\n", p, s.trueN, s.falseN, s.unknownN, 100*float64(s.trueN)/float64(n), s.approx)
	}
}

// summary renders the figures: instances with :init true, then per
// predicate, per parent category, and per kind of literal.
func summary(run *agreementRun) (string, [2][2]int) {
	var b strings.Builder
	fmt.Fprintf(&b, "instances with :init true %d/%d (%.1f%%)\n\nper predicate:\n", run.instTrue, run.instances, 100*float64(run.instTrue)/float64(max(1, run.instances)))
	writeTallies(&b, run.stats)
	b.WriteString("\nper predicate and parent category:\n")
	writeTallies(&b, run.parents)
	var cat [2][2]int // [geometric][true, total]
	for p, s := range run.stats {
		g := 0
		if IsGeometric(p) {
			g = 1
		}
		cat[g][0] += s.trueN
		cat[g][1] += s.trueN + s.falseN + s.unknownN
	}
	fmt.Fprintf(&b, "\nnon-geometric true %d/%d (%.1f%%)\n", cat[0][0], cat[0][1], 100*float64(cat[0][0])/float64(max(1, cat[0][1])))
	fmt.Fprintf(&b, "geometric     true %d/%d (%.1f%%)\n", cat[1][0], cat[1][1], 100*float64(cat[1][0])/float64(max(1, cat[1][1])))
	return b.String(), cat
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file; run go test -update and review the diff\n--- got:\n%s", path, got)
	}
}

// TestInitAgreement converts every sample instance and compares its :init,
// literal by literal, with the simulator, which found all of it true.
// The golden files record the figures per offset estimate, so that the
// estimate's effect is visible (README).
func TestInitAgreement(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   Options
		golden string
	}{
		{"support", Options{Offsets: OffsetsSupport}, "agreement.golden"},
		{"none", Options{Offsets: OffsetsNone}, "agreement-offsets-none.golden"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var run *agreementRun
			if tc.opts.Offsets == OffsetsSupport {
				run = sharedSupportRun(t)
			} else {
				run = agreement(t, tc.opts)
			}
			if run == nil {
				t.Fatal("agreement run failed")
			}
			sum, cat := summary(run)
			t.Log("\n" + sum)
			if !corpus.Recorded(t) || !corpus.RecordedOmniGibson(t) {
				// Another corpus: every instance converted and evaluated
				// (above); the simulator validated :init on each, so most
				// must come out true.
				// (With boxes centred most are unknown within their error.)
				if run.instances == 0 || tc.opts.Offsets == OffsetsSupport && 2*run.instTrue < run.instances {
					t.Errorf(":init true on %d of %d instances", run.instTrue, run.instances)
				}
				return
			}
			golden(t, tc.golden, sum+"\ndisagreements (predicate, instance, literal, value, detail):\n"+strings.Join(run.dis, "\n")+"\n")
			if tc.opts.Offsets == OffsetsSupport {
				// The simulator validated :init on every instance. The
				// golden file lists every disagreement, so any new one
				// fails above; this bounds them (docs/omnigibson.md names
				// the one instance that remains).
				if got := float64(run.instTrue) / float64(run.instances); got < 0.95 {
					t.Errorf(":init true on %d of %d instances (< 95%%); failing: %s", run.instTrue, run.instances, strings.Join(run.failing, ", "))
				}
				if got := float64(cat[0][0]) / float64(cat[0][1]); got < 0.995 {
					t.Errorf("non-geometric agreement %.3f < 0.995", got)
				}
				if got := float64(cat[1][0]) / float64(cat[1][1]); got < 0.99 {
					t.Errorf("geometric agreement %.3f < 0.99", got)
				}
			}
		})
	}
}

var supportRun struct {
	once sync.Once
	run  *agreementRun
}

// sharedSupportRun is the agreement run with the default offsets, made
// once for the tests that read it. Missing data skips the test here,
// before the Once: a skip inside it would end the Once with no run and
// fail every later caller.
func sharedSupportRun(t *testing.T) *agreementRun {
	corpus.KBDir(t)
	corpus.OmniGibsonDir(t)
	supportRun.once.Do(func() { supportRun.run = agreement(t, Options{Offsets: OffsetsSupport}) })
	return supportRun.run
}

// TestParentCategories: the named cases of the issue, on every shared
// instance: each :init literal whose parent (second argument) is of the
// category comes out true. The synthetic cases of the same names are in
// TestEstimateOffsets and TestExtendSupports.
func TestParentCategories(t *testing.T) {
	run := sharedSupportRun(t)
	if run == nil {
		t.Fatal("agreement run failed")
	}
	if !corpus.Recorded(t) || !corpus.RecordedOmniGibson(t) {
		t.Skip("the named cases are those of the recorded instances")
	}
	for _, tc := range []struct{ name, category string }{
		{"floor", "floors"}, {"lawn", "lawn"}, {"bed", "bed"}, {"cabinet", "cabinet"}, {"shelf", "shelf"},
		{"tray", "tray"}, {"fridge", "fridge"}, {"countertop", "countertop"}, {"table", "table"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			for k, s := range run.parents {
				_, cat, _ := strings.Cut(k, " ")
				if !strings.Contains(cat, tc.category) {
					continue
				}
				n += s.trueN + s.falseN + s.unknownN
				// Unknown is an honest answer within the boxes' error
				// (TestInitErrorModel counts them); false is wrong.
				if s.falseN > 0 {
					t.Errorf("%s: %d of %d literals false", k, s.falseN, s.trueN+s.falseN+s.unknownN)
				}
			}
			if n == 0 {
				t.Skipf("no :init literal with a %s parent in the shared instances", tc.category)
			}
			t.Logf("%d literals with a %s parent", n, tc.category)
		})
	}
}

// TestCategorySizeFallback: a model the inventory lacks gets its
// category's median size, marked as guessed.
func TestCategorySizeFallback(t *testing.T) {
	c := &Converter{base: corpusKB(t)}
	mi := c.resolveModel(&SceneObject{Name: "apple_9", Category: "apple", Model: "zzzzzz"})
	if !mi.hasSize || !mi.sizeGuessed || !(mi.size[0] > 0.03 && mi.size[0] < 0.3) {
		t.Errorf("apple of an unknown model: %+v, want a guessed apple-sized box", mi)
	}
	mi = c.resolveModel(&SceneObject{Name: "x", Category: "no_such_category", Model: "zzzzzz"})
	if mi.hasSize {
		t.Errorf("unknown category got a size: %+v", mi)
	}
}

// TestConcurrentConvert: one Converter used by several goroutines gives
// each instance the same episode as a sequential conversion.
func TestConcurrentConvert(t *testing.T) {
	base := corpusKB(t)
	task, err := FindTask(taskDirs(t)[3])
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := ReadTemplate(task.Template)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewConverter(tmpl, readProblem(t, task.Definition), task.Definition, base, Options{})
	if err != nil {
		t.Fatal(err)
	}
	encode := func(p string) string {
		in, err := ReadInstance(p)
		if err != nil {
			t.Error(err)
			return ""
		}
		h, _, err := c.Convert(in)
		if err != nil {
			t.Error(err)
			return ""
		}
		var buf strings.Builder
		w, err := episode.NewWriter(&buf, h)
		if err == nil {
			err = w.WriteStep(&episode.Step{})
		}
		if err == nil {
			err = w.Close()
		}
		if err != nil {
			t.Error(err)
		}
		return buf.String()
	}
	want := make([]string, len(task.Instances))
	for i, p := range task.Instances {
		want[i] = encode(p)
	}
	got := make([]string, len(task.Instances)*4)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = encode(task.Instances[i%len(task.Instances)])
		}()
	}
	wg.Wait()
	for i, g := range got {
		if g != want[i%len(want)] {
			t.Errorf("concurrent conversion %d differs from the sequential one", i)
		}
	}
}
