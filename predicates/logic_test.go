package predicates

import (
	"fmt"
	"testing"
)

// Exhaustive truth tables: every connective and quantifier over every
// assignment of {true, false, unknown} to its atoms, in every evaluation
// mode, against tables written out here and against the supervaluation
// of the boolean rule (which equals Kleene's reading when the atoms are
// independent, and is the contract of SEMANTICS.md A1 for forn).

const (
	U = Unknown
	F = False
	T = True
)

func TestTruthMethods(t *testing.T) {
	t.Parallel()
	not := map[Truth]Truth{T: F, F: T, U: U}
	and := map[[2]Truth]Truth{
		{T, T}: T, {T, F}: F, {T, U}: U,
		{F, T}: F, {F, F}: F, {F, U}: F,
		{U, T}: U, {U, F}: F, {U, U}: U,
	}
	or := map[[2]Truth]Truth{
		{T, T}: T, {T, F}: T, {T, U}: T,
		{F, T}: T, {F, F}: F, {F, U}: U,
		{U, T}: T, {U, F}: U, {U, U}: U,
	}
	for a, want := range not {
		if got := a.Not(); got != want {
			t.Errorf("%v.Not() = %v, want %v", a, got, want)
		}
	}
	for k, want := range and {
		if got := k[0].And(k[1]); got != want {
			t.Errorf("%v.And(%v) = %v, want %v", k[0], k[1], got, want)
		}
		if got := k[0].Implies(k[1]); got != or[[2]Truth{not[k[0]], k[1]}] {
			t.Errorf("%v.Implies(%v) = %v", k[0], k[1], got)
		}
	}
	for k, want := range or {
		if got := k[0].Or(k[1]); got != want {
			t.Errorf("%v.Or(%v) = %v, want %v", k[0], k[1], got, want)
		}
	}
	var zero Truth
	if zero != Unknown {
		t.Errorf("zero Truth = %v, want unknown", zero)
	}
}

// modePrograms compiles a source in every evaluation mode that must agree.
func modePrograms(t *testing.T, src string, base Options) map[string]*Program {
	t.Helper()
	exhaustive := base
	exhaustive.Exhaustive = true
	return map[string]*Program{"default": mustCompile(t, src, base), "exhaustive": mustCompile(t, src, exhaustive)}
}

// evalModes evaluates every program, and the trace and stats paths too.
func evalModes(progs map[string]*Program, s func(*Program) *State) map[string]Truth {
	out := map[string]Truth{}
	for name, p := range progs {
		st := s(p)
		out[name] = p.Eval(st)
		out[name+"/trace"] = p.Explain(st).Value
		v, _ := p.EvalStats(st)
		out[name+"/stats"] = v
	}
	return out
}

func checkModes(t *testing.T, label string, got map[string]Truth, want Truth) {
	t.Helper()
	for mode, v := range got {
		if v != want {
			t.Errorf("%s [%s] = %v, want %v", label, mode, v, want)
		}
	}
}

func TestConnectiveTables(t *testing.T) {
	t.Parallel()
	objs := "a.n.01_1 a.n.01_2 - a.n.01"
	cases := []struct {
		goal string
		rule func(a, b bool) bool
	}{
		{"(not (cooked a.n.01_1))", func(a, _ bool) bool { return !a }},
		{"(and (cooked a.n.01_1) (cooked a.n.01_2))", func(a, b bool) bool { return a && b }},
		{"(or (cooked a.n.01_1) (cooked a.n.01_2))", func(a, b bool) bool { return a || b }},
		{"(imply (cooked a.n.01_1) (cooked a.n.01_2))", func(a, b bool) bool { return !a || b }},
		{"(not (and (cooked a.n.01_1) (not (cooked a.n.01_2))))", func(a, b bool) bool { return !(a && !b) }},
		{"(not (or (cooked a.n.01_1) (cooked a.n.01_2)))", func(a, b bool) bool { return !(a || b) }},
	}
	for _, c := range cases {
		for _, neg := range []NegationMode{ReferenceNegation, StrictNegation} {
			progs := modePrograms(t, problem(objs, "", c.goal), Options{Negation: neg})
			assignments(2, func(vals []Truth) {
				got := evalModes(progs, func(p *Program) *State {
					s := p.NewState()
					s.SetAllExist(true)
					for i, v := range vals {
						_ = s.SetFact(predCooked, ObjectID(i), NoObject, v)
					}
					return s
				})
				want := supervaluation(vals, func(b []bool) bool { return c.rule(b[0], b[1]) })
				checkModes(t, fmt.Sprintf("%s %v with %v negation", c.goal, vals, neg), got, want)
			})
		}
	}
}

// quantCase is a quantified goal over the objects x.n.01_1..3 and
// y.n.01_1..2 with the boolean rule it must follow; atoms lists its
// ground atoms in the order the rule reads them.
type quantCase struct {
	name  string
	goal  string
	opts  Options
	atoms [][2]string // (pred args) pairs: unary "cooked x" or binary "ontop x y"
	rule  func([]bool) bool
}

const quantObjects = "x.n.01_1 x.n.01_2 x.n.01_3 - x.n.01 y.n.01_1 y.n.01_2 - y.n.01 z.n.01_1 - z.n.01"

var xs = []string{"x.n.01_1", "x.n.01_2", "x.n.01_3"}
var ys = []string{"y.n.01_1", "y.n.01_2"}

func quantCases() []quantCase {
	unary := func() [][2]string {
		var out [][2]string
		for _, x := range xs {
			out = append(out, [2]string{x, ""})
		}
		return out
	}
	grid := func(rows, cols []string) [][2]string {
		var out [][2]string
		for _, r := range rows {
			for _, c := range cols {
				if r != c {
					out = append(out, [2]string{r, c})
				}
			}
		}
		return out
	}
	count := func(b []bool) int {
		n := 0
		for _, v := range b {
			if v {
				n++
			}
		}
		return n
	}
	cases := []quantCase{
		{name: "forall", goal: "(forall (?x - x.n.01) (cooked ?x))", atoms: unary(),
			rule: func(b []bool) bool { return count(b) == len(b) }},
		{name: "exists", goal: "(exists (?x - x.n.01) (cooked ?x))", atoms: unary(),
			rule: func(b []bool) bool { return count(b) > 0 }},
	}
	for n := 0; n <= 4; n++ {
		cases = append(cases, quantCase{name: fmt.Sprintf("forn-%d", n), goal: fmt.Sprintf("(forn (%d) (?x - x.n.01) (cooked ?x))", n),
			atoms: unary(), rule: func(b []bool) bool { return count(b) == n }})
	}
	// The reference cover test over a rows × cols matrix given row by row
	// with each row's own object left out: rows with a true entry ≥ L and
	// column positions with a true entry ≥ L.
	cover := func(rows, cols []string, need func(width int) int) func([]bool) bool {
		return func(b []bool) bool {
			k := 0
			width := -1
			rowHit := 0
			colHit := map[int]bool{}
			for _, r := range rows {
				pos := 0
				hit := false
				for _, c := range cols {
					if r == c {
						continue
					}
					if b[k] {
						hit = true
						colHit[pos] = true
					}
					k++
					pos++
				}
				if width < 0 {
					width = pos
				}
				if hit {
					rowHit++
				}
			}
			L := need(width)
			return rowHit >= L && len(colHit) >= L
		}
	}
	// A one-to-one matching of L distinct-object pairs, by brute force.
	matching := func(rows, cols []string, L int) func([]bool) bool {
		return func(b []bool) bool {
			edge := map[[2]string]bool{}
			k := 0
			for _, r := range rows {
				for _, c := range cols {
					if r != c {
						edge[[2]string{r, c}] = b[k]
						k++
					}
				}
			}
			var rec func(i int, used map[string]bool, got int) bool
			rec = func(i int, used map[string]bool, got int) bool {
				if got >= L {
					return true
				}
				if i == len(rows) {
					return false
				}
				if rec(i+1, used, got) {
					return true
				}
				for _, c := range cols {
					if !used[c] && edge[[2]string{rows[i], c}] {
						used[c] = true
						ok := rec(i+1, used, got+1)
						delete(used, c)
						if ok {
							return true
						}
					}
				}
				return false
			}
			return rec(0, map[string]bool{}, 0)
		}
	}
	cases = append(cases,
		quantCase{name: "forpairs", goal: "(forpairs (?x - x.n.01) (?y - y.n.01) (ontop ?x ?y))", atoms: grid(xs, ys),
			rule: cover(xs, ys, func(w int) int { return min(len(xs), w) })},
		quantCase{name: "forpairs-same-synset", goal: "(forpairs (?x - x.n.01) (?z - x.n.01) (ontop ?x ?z))", atoms: grid(xs, xs),
			rule: cover(xs, xs, func(w int) int { return min(len(xs), w) })},
		quantCase{name: "forpairs-strict", opts: Options{StrictPairs: true}, goal: "(forpairs (?x - x.n.01) (?y - y.n.01) (ontop ?x ?y))",
			atoms: grid(xs, ys), rule: matching(xs, ys, 2)},
		quantCase{name: "forpairs-strict-same-synset", opts: Options{StrictPairs: true}, goal: "(forpairs (?x - x.n.01) (?z - x.n.01) (ontop ?x ?z))",
			atoms: grid(xs, xs), rule: matching(xs, xs, 3)},
		quantCase{name: "forpairs-strict-single", opts: Options{StrictPairs: true}, goal: "(forpairs (?x - z.n.01) (?z - z.n.01) (ontop ?x ?z))",
			atoms: nil, rule: func([]bool) bool { return true }},
	)
	for n := 0; n <= 3; n++ {
		cases = append(cases,
			quantCase{name: fmt.Sprintf("fornpairs-%d", n), goal: fmt.Sprintf("(fornpairs (%d) (?x - x.n.01) (?y - y.n.01) (ontop ?x ?y))", n),
				atoms: grid(xs, ys), rule: cover(xs, ys, func(int) int { return n })},
			quantCase{name: fmt.Sprintf("fornpairs-strict-%d", n), opts: Options{StrictPairs: true},
				goal:  fmt.Sprintf("(fornpairs (%d) (?x - x.n.01) (?y - y.n.01) (ontop ?x ?y))", n),
				atoms: grid(xs, ys), rule: matching(xs, ys, n)})
	}
	return cases
}

func TestQuantifierTables(t *testing.T) {
	t.Parallel()
	for _, c := range quantCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			progs := modePrograms(t, problem(quantObjects, "", c.goal), c.opts)
			assignments(len(c.atoms), func(vals []Truth) {
				got := evalModes(progs, func(p *Program) *State {
					s := p.NewState()
					s.SetAllExist(true)
					for i, at := range c.atoms {
						if at[1] == "" {
							_ = s.SetFact(predCooked, id(t, p, at[0]), NoObject, vals[i])
						} else {
							_ = s.SetFact(predOntop, id(t, p, at[0]), id(t, p, at[1]), vals[i])
						}
					}
					return s
				})
				checkModes(t, fmt.Sprintf("%s %v", c.goal, vals), got, supervaluation(vals, c.rule))
			})
		})
	}
}

func TestExactlyN(t *testing.T) {
	t.Parallel()
	// SEMANTICS.md A1, directly.
	for nT := 0; nT <= 4; nT++ {
		for nU := 0; nU+nT <= 4; nU++ {
			nF := 4 - nT - nU
			for n := 0; n <= 4; n++ {
				want := Unknown
				switch {
				case nT == n && nU == 0:
					want = True
				case nT > n || nT+nU < n:
					want = False
				}
				if got := exactlyN(nT, nU, n); got != want {
					t.Errorf("exactlyN(T=%d, U=%d, F=%d, n=%d) = %v, want %v", nT, nU, nF, n, got, want)
				}
			}
		}
	}
}
