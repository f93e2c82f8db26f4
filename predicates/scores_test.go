package predicates

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/openbddl/bddl/bddl"
)

// The reference's ground options, enumerated literally from the parsed
// definition as bddl's get_ground_options does (without its truncation),
// to check the scorer and the counter. Options are lists of literal keys
// ("ontop a b" or "not ontop a b").
type refEnum struct {
	w     *naiveWorld
	limit int
	over  bool
}

func (e *refEnum) product(lists [][][]string) [][]string {
	out := [][]string{nil}
	for _, l := range lists {
		var next [][]string
		for _, prefix := range out {
			for _, opt := range l {
				next = append(next, append(append([]string(nil), prefix...), opt...))
				if len(next) > e.limit {
					e.over = true
					return nil
				}
			}
		}
		out = next
	}
	return out
}

func negateKey(k string) string {
	if strings.HasPrefix(k, "not ") {
		return strings.TrimPrefix(k, "not ")
	}
	return "not " + k
}

func (e *refEnum) options(f bddl.Formula, scope map[string]string) [][]string {
	if e.over {
		return nil
	}
	bind := func(v bddl.VarDecl, obj string, s map[string]string) map[string]string {
		s2 := map[string]string{}
		for k, x := range s {
			s2[k] = x
		}
		s2[v.Var.Key()] = obj
		return s2
	}
	switch n := f.(type) {
	case *bddl.Atom:
		return [][]string{{e.w.key(n.Pred.Key(), e.w.args(n, scope))}}
	case *bddl.Not:
		child := e.options(n.X, scope)
		// One literal from each child option, negated.
		var lists [][][]string
		for _, opt := range child {
			var alts [][]string
			for _, l := range opt {
				alts = append(alts, []string{negateKey(l)})
			}
			lists = append(lists, alts)
		}
		return e.product(lists)
	case *bddl.And:
		var lists [][][]string
		for _, x := range n.Xs {
			lists = append(lists, e.options(x, scope))
		}
		return e.product(lists)
	case *bddl.Or:
		var out [][]string
		for _, x := range n.Xs {
			out = append(out, e.options(x, scope)...)
		}
		return out
	case *bddl.Imply:
		return append(e.options(&bddl.Not{X: n.If}, scope), e.options(n.Then, scope)...)
	case *bddl.Quant:
		switch n.Kind {
		case bddl.Forall, bddl.Exists, bddl.ForN:
			var kids [][][]string
			for _, o := range e.w.instances[n.Vars[0].Type.Key()] {
				kids = append(kids, e.options(n.Body, bind(n.Vars[0], o, scope)))
			}
			switch n.Kind {
			case bddl.Forall:
				return e.product(kids)
			case bddl.Exists:
				var out [][]string
				for _, k := range kids {
					out = append(out, k...)
				}
				return out
			}
			var out [][]string
			var rec func(start int, chosen [][][]string)
			rec = func(start int, chosen [][][]string) {
				if len(chosen) == n.N {
					out = append(out, e.product(chosen)...)
					return
				}
				for i := start; i < len(kids); i++ {
					rec(i+1, append(chosen, kids[i]))
				}
			}
			rec(0, nil)
			return out
		default:
			rows := e.w.instances[n.Vars[0].Type.Key()]
			cols := e.w.instances[n.Vars[1].Type.Key()]
			var cells [][][][]string // [row][position] options
			width := -1
			for _, r := range rows {
				var row [][][]string
				for _, c := range cols {
					if c == r {
						continue
					}
					s2 := bind(n.Vars[0], r, scope)
					s2[n.Vars[1].Var.Key()] = c
					row = append(row, e.options(n.Body, s2))
				}
				if width < 0 {
					width = len(row)
				}
				cells = append(cells, row)
			}
			size := n.N
			if n.Kind == bddl.ForPairs {
				size = min(len(rows), max(width, 0))
			}
			// Every matching of size pairs, as a set of (row, position).
			var out [][]string
			used := map[int]bool{}
			var rec func(r int, chosen [][][]string)
			rec = func(r int, chosen [][][]string) {
				if len(chosen) == size {
					out = append(out, e.product(chosen)...)
					return
				}
				if r == len(rows) {
					return
				}
				for c := 0; c < width && c < len(cells[r]); c++ {
					if !used[c] {
						used[c] = true
						rec(r+1, append(chosen, cells[r][c]))
						delete(used, c)
					}
				}
				rec(r+1, chosen)
			}
			rec(0, nil)
			return out
		}
	}
	return nil
}

// consistentRef drops the options holding a literal and its negation.
func consistentRef(opts [][]string) [][]string {
	var out [][]string
	for _, o := range opts {
		set := map[string]bool{}
		for _, l := range o {
			set[l] = true
		}
		ok := true
		for l := range set {
			if set[negateKey(l)] {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, o)
		}
	}
	return out
}

// bestRatio is the best fraction of counted literals over the non-empty
// options, as (numerator, denominator).
func bestRatio(opts [][]string, counted func(string) bool) (int, int, bool) {
	bp, bq, have := 0, 1, false
	for _, o := range opts {
		if len(o) == 0 {
			continue
		}
		s := 0
		for _, l := range o {
			if counted(l) {
				s++
			}
		}
		if !have || s*bq > bp*len(o) {
			bp, bq, have = s, len(o), true
		}
	}
	return bp, bq, have
}

// scoreWorld is a random assignment of truth values to positive atoms.
type scoreWorld map[string]Truth

// literal is a literal's value; every object exists, so real holds and
// future does not, whatever the facts say.
func (w scoreWorld) literal(k string) Truth {
	if strings.HasPrefix(k, "not ") {
		return w.literal(strings.TrimPrefix(k, "not ")).Not()
	}
	f := strings.Fields(k)
	switch f[0] {
	case "real":
		return True
	case "future":
		return False
	}
	if pr, ok := PredByName(f[0]); ok && registry[pr].irreflexive && len(f) == 3 && f[1] == f[2] {
		return False
	}
	return w[k]
}

func (w scoreWorld) apply(t *testing.T, p *Program, s *State) {
	for k, v := range w {
		f := strings.Fields(k)
		b := NoObject
		if len(f) == 3 {
			b = id(t, p, f[2])
		}
		if err := s.SetFact(pred(t, f[0]), id(t, p, f[1]), b, v); err != nil {
			t.Fatal(err)
		}
	}
}

func randomWorld(rng *rand.Rand, opts [][]string) scoreWorld {
	w := scoreWorld{}
	for _, o := range opts {
		for _, l := range o {
			k := strings.TrimPrefix(l, "not ")
			if _, ok := w[k]; !ok {
				w[k] = truths[rng.IntN(3)] // options are listed in a fixed order
			}
		}
	}
	return w
}

// checkScores compares Scores and GroundOptionCount with the brute force
// on random worlds.
func checkScores(t *testing.T, name string, prob *bddl.Problem, p *Program, rng *rand.Rand, trials, limit int) bool {
	t.Helper()
	e := &refEnum{w: newNaiveWorld(prob), limit: limit}
	all := e.options(prob.Goal, nil)
	if e.over {
		return false
	}
	opts := consistentRef(all)
	count, err := p.GroundOptionCount()
	if err != nil {
		t.Fatalf("%s: GroundOptionCount: %v", name, err)
	}
	if !count.Exact || count.N.Int64() != int64(len(opts)) {
		t.Errorf("%s: GroundOptionCount = %v, brute force %d", name, count, len(opts))
	}
	listed := 0
	for range p.GroundOptions(0) {
		listed++
	}
	if listed != len(opts) {
		t.Errorf("%s: GroundOptions listed %d, brute force %d", name, listed, len(opts))
	}
	memo := new(ScoreMemo)
	for trial := 0; trial < trials; trial++ {
		now, base := randomWorld(rng, all), randomWorld(rng, all)
		sNow, sBase := p.NewState(), p.NewState()
		sNow.SetAllExist(true)
		sBase.SetAllExist(true)
		now.apply(t, p, sNow)
		base.apply(t, p, sBase)
		got, err := p.Scores(sNow, sBase)
		if err != nil {
			t.Fatalf("%s: Scores: %v", name, err)
		}
		// Through a memo shared by the trials: a search with its reused
		// scorer, then the remembered result, both equal to Scores.
		for range 2 {
			if m, err := p.ScoresMemo(sNow, sBase, memo); err != nil || !reflect.DeepEqual(m, got) {
				t.Fatalf("%s trial %d: ScoresMemo = %+v, %v; Scores %+v", name, trial, m, err, got)
			}
		}
		// ScoreValues: the same values, without a memo and through one
		// that read this trial's baseline once (FixBaseline).
		fixed := new(ScoreMemo)
		if err := fixed.FixBaseline(p, sBase); err != nil {
			t.Fatalf("%s: FixBaseline: %v", name, err)
		}
		for _, m := range []*ScoreMemo{nil, fixed, fixed} {
			lib, chal, err := p.ScoreValues(sNow, sBase, m, got.Success)
			if err != nil || lib != got.Library.Value || chal != got.Challenge.Value {
				t.Fatalf("%s trial %d: ScoreValues = %v, %v, %v; Scores %v, %v", name, trial, lib, chal, err,
					got.Library.Value, got.Challenge.Value)
			}
		}
		if sc, err := p.ScoresMemo(sNow, sBase, fixed); err != nil || !reflect.DeepEqual(sc, got) {
			t.Fatalf("%s trial %d: ScoresMemo with a fixed baseline = %+v, %v; Scores %+v", name, trial, sc, err, got)
		}
		if got.Success == True {
			continue // 1 by definition
		}
		nowV, baseV := map[string]Truth{}, map[string]Truth{}
		for _, o := range opts {
			for _, l := range o {
				if _, ok := nowV[l]; !ok {
					nowV[l], baseV[l] = now.literal(l), base.literal(l)
				}
			}
		}
		lp, lq, lok := bestRatio(opts, func(l string) bool { return nowV[l] == True })
		cp, cq, _ := bestRatio(opts, func(l string) bool { return nowV[l] == True && baseV[l] == False })
		if !lok {
			if got.Library.Total != 0 {
				t.Errorf("%s: library score %d/%d, brute force has no option", name, got.Library.Satisfied, got.Library.Total)
			}
			continue
		}
		if got.Library.Satisfied*lq != lp*got.Library.Total || got.Library.Total == 0 || !got.Library.Exact {
			t.Errorf("%s trial %d: library score %d/%d, brute force %d/%d", name, trial, got.Library.Satisfied, got.Library.Total, lp, lq)
		}
		if got.Challenge.Satisfied*cq != cp*got.Challenge.Total || got.Challenge.Total == 0 {
			t.Errorf("%s trial %d: challenge score %d/%d, brute force %d/%d", name, trial, got.Challenge.Satisfied, got.Challenge.Total, cp, cq)
		}
		// The reported option must be a real option achieving the score.
		if len(got.Library.Option) != got.Library.Total {
			t.Errorf("%s: best option has %d literals, score says %d", name, len(got.Library.Option), got.Library.Total)
		}
		sat := 0
		for _, l := range got.Library.Option {
			if p.literalValue(sNow, l) == True {
				sat++
			}
		}
		if sat != got.Library.Satisfied {
			t.Errorf("%s: best option satisfies %d literals, score says %d", name, sat, got.Library.Satisfied)
		}
	}
	return true
}

// TestScoresMatchBruteForce: on every corpus activity small enough to
// enumerate, the exact scores and counts equal brute-force enumeration of
// the reference's options, on random states.
func TestScoresMatchBruteForce(t *testing.T) {
	acts, base := loadCorpus(t)
	rng := rand.New(rand.NewPCG(5, 6))
	checked := 0
	for _, a := range acts {
		if hasWildcard(a.problem) {
			continue
		}
		p, err := Compile(a.problem, base, Options{})
		if err != nil {
			continue
		}
		if checkScores(t, a.name, a.problem, p, rng, 3, 5000) {
			checked++
		}
	}
	if checked < len(acts)/2 {
		t.Errorf("only %d activities were small enough to check", checked)
	}
	t.Logf("checked %d activities against brute force", checked)
}

// TestScoresSynthetic covers the shapes the corpus rarely has: negations
// of conjunctions, forn, fornpairs, imply with both polarities, pairs
// over one synset, and empty options.
func TestScoresSynthetic(t *testing.T) {
	t.Parallel()
	objs := quantObjects
	goals := []string{
		"(and (cooked x.n.01_1) (not (cooked x.n.01_1)))",
		"(not (and (cooked x.n.01_1) (or (cooked x.n.01_2) (cooked x.n.01_3))))",
		"(not (forall (?x - x.n.01) (or (cooked ?x) (frozen ?x))))",
		"(forn (2) (?x - x.n.01) (or (cooked ?x) (and (frozen ?x) (hot ?x))))",
		"(fornpairs (2) (?x - x.n.01) (?y - y.n.01) (or (ontop ?x ?y) (nextto ?x ?y)))",
		"(forpairs (?x - x.n.01) (?y - x.n.01) (ontop ?x ?y))",
		"(forpairs (?y - y.n.01) (?x - x.n.01) (and (ontop ?x ?y) (not (cooked ?x))))",
		"(and (forall (?x - x.n.01) (imply (cooked ?x) (not (ontop ?x y.n.01_1)))) (exists (?x - x.n.01) (ontop ?x y.n.01_1)))",
		"(and (forall (?w - w.n.01) (cooked ?w)) (or (cooked x.n.01_1) (forall (?w - w.n.01) (hot ?w))))",
		"(or (forall (?w - w.n.01) (hot ?w)) (and (cooked x.n.01_1) (cooked x.n.01_2)))",
		"(and (exists (?x - x.n.01) (cooked ?x)) (forall (?x - x.n.01) (not (cooked ?x))) (hot z.n.01_1))",
		"(imply (not (or (cooked x.n.01_1) (hot x.n.01_1))) (and (cooked x.n.01_2) (not (hot x.n.01_2))))",
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for i, g := range goals {
		src := problem(objs, "", g)
		prob, diags := bddl.ParseProblem("test.bddl", []byte(src))
		if diags.HasErrors() {
			t.Fatalf("goal %d: %v", i, diags)
		}
		for _, opts := range []Options{{}, {Negation: StrictNegation}} {
			p, err := Compile(prob, nil, opts)
			if err != nil {
				t.Fatalf("goal %d: %v", i, err)
			}
			if !checkScores(t, fmt.Sprintf("goal %d %s", i, g), prob, p, rng, 40, 20000) {
				t.Errorf("goal %d too large for the brute force", i)
			}
		}
	}
}

func TestGroundOptionsOrderAndLimit(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, problem(quantObjects, "", "(exists (?x - x.n.01) (forall (?y - y.n.01) (ontop ?x ?y)))"), Options{})
	var got []string
	for opt := range p.GroundOptions(2) {
		var lits []string
		for _, l := range opt {
			lits = append(lits, p.FormatLiteral(l))
		}
		got = append(got, strings.Join(lits, " "))
	}
	want := []string{
		"(ontop x.n.01_1 y.n.01_1) (ontop x.n.01_1 y.n.01_2)",
		"(ontop x.n.01_2 y.n.01_1) (ontop x.n.01_2 y.n.01_2)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("GroundOptions(2) =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	c, err := p.GroundOptionCount()
	if err != nil || c.N.Int64() != 3 || !c.Exact {
		t.Errorf("GroundOptionCount = %v, %v; want 3", c, err)
	}
}

// TestOptionCountBig: counts beyond int64 are exact big integers.
func TestOptionCountBig(t *testing.T) {
	t.Parallel()
	var objs []string
	for i := 1; i <= 40; i++ {
		objs = append(objs, fmt.Sprintf("x.n.01_%d", i))
	}
	src := problem(strings.Join(objs, " ")+" - x.n.01 y.n.01_1 y.n.01_2 y.n.01_3 - y.n.01", "",
		"(forall (?x - x.n.01) (exists (?y - y.n.01) (ontop ?x ?y)))")
	p := mustCompile(t, src, Options{})
	c, err := p.GroundOptionCount()
	if err != nil {
		t.Fatal(err)
	}
	// 3^40
	if c.N.String() != "12157665459056928801" || !c.Exact {
		t.Errorf("count = %v, want 3^40 = 12157665459056928801", c)
	}
	s := p.NewState()
	s.SetAllExist(true)
	for i := 0; i < 40; i += 2 {
		_ = s.SetFact(predOntop, ObjectID(i), id(t, p, "y.n.01_2"), True)
	}
	sc, err := p.Scores(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Library.Satisfied != 20 || sc.Library.Total != 40 {
		t.Errorf("library score %d/%d, want 20/40", sc.Library.Satisfied, sc.Library.Total)
	}
}

// TestPlainScore: a goal with one option (a conjunction, foralls of
// ground literals) is scored by counting (plainScore); the count equals
// the search's result, option included, on random literal values, and
// goals with a choice or an atom of both polarities are searched.
func TestPlainScore(t *testing.T) {
	objs := "a.n.01_1 a.n.01_2 a.n.01_3 - a.n.01 b.n.01_1 - b.n.01"
	for _, tc := range []struct {
		goal  string
		plain bool
	}{
		{"(and (cooked ?a.n.01_1) (not (frozen ?a.n.01_2)))", true},
		{"(cooked ?a.n.01_1)", true},
		{"(and (forall (?a.n.01 - a.n.01) (cooked ?a.n.01)) (ontop ?a.n.01_1 ?b.n.01_1))", true},
		{"(and (cooked ?a.n.01_1) (cooked ?a.n.01_1))", true},
		{"(or (cooked ?a.n.01_1) (frozen ?a.n.01_2))", false},
		{"(exists (?a.n.01 - a.n.01) (cooked ?a.n.01))", false},
		{"(forn (2) (?a.n.01 - a.n.01) (cooked ?a.n.01))", false},
		{"(and (cooked ?a.n.01_1) (not (cooked ?a.n.01_1)))", false},
	} {
		p := mustCompile(t, problem(objs, "", tc.goal), Options{})
		tr, err := p.groundTree()
		if err != nil {
			t.Fatal(err)
		}
		if tr.plain != tc.plain {
			t.Errorf("%s: plain %v, want %v", tc.goal, tr.plain, tc.plain)
			continue
		}
		if !tr.plain {
			continue
		}
		rng := rand.New(rand.NewPCG(1, uint64(len(tc.goal))))
		sat := make([]bool, len(tr.lits))
		for trial := 0; trial < 64; trial++ {
			for i := range sat {
				sat[i] = rng.IntN(2) == 0
			}
			got := tr.plainScore(sat)
			want := tr.bestScoreWith(sat, newScorer(tr), make([]bool, len(tr.lits)))
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, sat %v: plainScore %+v, search %+v", tc.goal, sat, got, want)
			}
		}
	}
}

// TestFixBaseline: a memo that read one baseline does not use it for
// another, and reads it again after FixBaseline(nil).
func TestFixBaseline(t *testing.T) {
	p := mustCompile(t, problem("a.n.01_1 a.n.01_2 - a.n.01", "",
		"(and (cooked ?a.n.01_1) (cooked ?a.n.01_2))"), Options{})
	state := func(cooked ...string) *State {
		s := p.NewState()
		s.SetAllExist(true)
		for _, o := range []string{"a.n.01_1", "a.n.01_2"} {
			if err := s.SetFact(predCooked, id(t, p, o), NoObject, TruthOf(slices.Contains(cooked, o))); err != nil {
				t.Fatal(err)
			}
		}
		return s
	}
	now := state("a.n.01_1")
	raw, cookedAtStart := state(), state("a.n.01_1")
	var m ScoreMemo
	if err := m.FixBaseline(p, raw); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		base *State
		want float64 // challenge: a.n.01_1 counts only if it was not cooked at the start
	}{{raw, 0.5}, {cookedAtStart, 0}, {raw, 0.5}} {
		_, chal, err := p.ScoreValues(now, tc.base, &m, False)
		if err != nil || chal != tc.want {
			t.Errorf("challenge %v, %v; want %v", chal, err, tc.want)
		}
		sc, err := p.ScoresKnowing(now, tc.base, &m, False)
		if err != nil || sc.Challenge.Value != tc.want {
			t.Errorf("ScoresKnowing challenge %+v, %v; want %v", sc, err, tc.want)
		}
	}
	if err := m.FixBaseline(p, nil); err != nil || m.fixed != nil {
		t.Errorf("FixBaseline(nil) = %v, memo still fixed: %v", err, m.fixed != nil)
	}
	other := mustCompile(t, problem("a.n.01_1 - a.n.01", "", "(cooked ?a.n.01_1)"), Options{})
	if err := m.FixBaseline(p, other.NewState()); err == nil {
		t.Error("FixBaseline with another program's state succeeded")
	}
}
