package activities

import (
	"fmt"
	"slices"

	"github.com/openbddl/bddl/bddl"
)

// kinematicPlacement are the predicates that place their first argument
// relative to their second (SEMANTICS.md B §3.3: the sampler's kinematic
// batches). onfloor is the legacy BEHAVIOR-100 one.
var kinematicPlacement = map[string]bool{
	"ontop": true, "inside": true, "under": true, "overlaid": true, "draped": true, "attached": true, "onfloor": true,
}

// particlePlacement are the predicates that place a substance (their
// second argument) in or on their first.
var particlePlacement = map[string]bool{
	"filled": true, "covered": true, "saturated": true, "insource": true, "contains": true,
}

// placingEdge returns the (child, parent) of a positive :init literal
// that places child relative to parent, or ok false. A parent that is not
// a declared instance is reported by the checker; the child counts as
// placed so that one mistake gives one finding.
func placingEdge(l *Literal) (child, parent int, ok bool) {
	if l.Negated || len(l.Args) != 2 {
		return 0, 0, false
	}
	a, b := l.Args[0], l.Args[1]
	switch {
	case kinematicPlacement[l.Pred]:
	case particlePlacement[l.Pred]:
		a, b = b, a
	default:
		return 0, 0, false
	}
	if a.Kind != ArgInstance {
		return 0, 0, false
	}
	return a.Inst, b.Inst, true // b.Inst is -1 when b is not an instance
}

// placed returns, per instance, whether a chain of placement literals
// leads from it to an instance in a room (computed once).
func (c *Context) placed() []bool {
	if c.cache.placed != nil {
		return c.cache.placed
	}
	placed := make([]bool, len(c.Instances))
	for i := range c.Instances {
		placed[i] = c.Instances[i].RoomLit >= 0
	}
	for changed := true; changed; {
		changed = false
		for k := range c.Init {
			child, parent, ok := placingEdge(&c.Init[k])
			if ok && !placed[child] && (parent < 0 || placed[parent]) {
				placed[child], changed = true, true
			}
		}
	}
	c.cache.placed = placed
	return placed
}

var ruleUnplaced = &Rule{
	Code: "unplaced", Name: "placement", Severity: bddl.Error,
	Doc: "every instance is placed: a chain of ontop, inside, under, overlaid, draped or attached literals leads from it " +
		"to an inroom scene object; a substance is filled, covered, saturated, insource or contains'd by a placed object " +
		"(future instances are exempt; an unplaced instance is reported once, at the root of its chain)",
	Fix: "add a placement literal whose parent is placed, or (inroom x ROOM) for a scene object",
	Check: func(c *Context) {
		placed := c.placed()
		parents := make([][]int, len(c.Instances)) // placement parents of the unplaced
		for k := range c.Init {
			if child, parent, ok := placingEdge(&c.Init[k]); ok && !placed[child] {
				parents[child] = append(parents[child], parent)
			}
		}
		// For each unplaced instance find the root that keeps it unplaced:
		// an instance with no placement literal, one placed on a future
		// object, or the representative of a loop. Only roots are reported.
		const (
			unvisited = iota
			visiting
			done
		)
		state := make([]uint8, len(c.Instances))
		root := make([]int, len(c.Instances))
		var find func(i int) int
		find = func(i int) int {
			switch state[i] {
			case visiting:
				return -1 // a loop; resolved below
			case done:
				return root[i]
			}
			state[i] = visiting
			r := -1
			if len(parents[i]) == 0 {
				r = i
			}
			for _, p := range parents[i] {
				if r < 0 && c.Instances[p].Future {
					r = i
				}
			}
			for _, p := range parents[i] {
				if r >= 0 {
					break
				}
				r = find(p)
			}
			state[i], root[i] = done, r
			return r
		}
		for i := range c.Instances {
			if placed[i] || c.Instances[i].Future || find(i) >= 0 {
				continue
			}
			// i leads into a loop: its representative is the loop's
			// first instance in :objects order.
			var path []int
			seen := map[int]int{}
			cur := i
			for {
				if at, ok := seen[cur]; ok {
					loop := path[at:]
					rep := slices.Min(loop)
					for _, j := range path {
						root[j] = rep
					}
					break
				}
				if root[cur] >= 0 {
					for _, j := range path {
						root[j] = root[cur]
					}
					break
				}
				seen[cur] = len(path)
				path = append(path, cur)
				cur = parents[cur][0]
			}
		}
		hanging := map[int][]string{}
		for i := range c.Instances {
			in := &c.Instances[i]
			if !placed[i] && !in.Future && !in.Agent && root[i] != i {
				hanging[root[i]] = append(hanging[root[i]], in.Ident.Name)
			}
		}
		for i := range c.Instances {
			in := &c.Instances[i]
			if placed[i] || in.Future || in.Agent || !in.InInit || root[i] != i {
				// Instances :init never mentions are object-not-in-init.
				continue
			}
			if len(parents[i]) == 0 && in.Substance && c.Has(in.Synset, liquidProperty) {
				continue // unsourced-liquid says it better
			}
			var msg string
			switch {
			case len(parents[i]) == 0:
				what := "no ontop, inside, under, overlaid, draped or attached literal puts it on a placed object and no inroom puts it in a room"
				if in.Substance {
					what = "no filled, covered, saturated, insource or contains literal puts it in or on a placed object"
				}
				msg = fmt.Sprintf("%s is not placed: %s", in.Ident.Name, what)
			default:
				msg = fmt.Sprintf("%s is not placed: %s", in.Ident.Name, c.chainTrouble(i, parents))
			}
			if h := hanging[i]; len(h) > 0 {
				msg += fmt.Sprintf("; %s placed relative to it %s unplaced too", list(h, 3), plural(len(h), "is", "are"))
			}
			c.Report(in.Ident.Range, msg, "place it, e.g. "+c.placementHint(i))
		}
	},
}

// chainTrouble explains why a root with placement literals is not
// placed: it is placed on a future object, or its chain loops (a root of a
// loop reaches itself again along first parents).
func (c *Context) chainTrouble(i int, parents [][]int) string {
	for _, p := range parents[i] {
		if c.Instances[p].Future {
			return fmt.Sprintf("it is placed relative to %s, which does not exist initially (it is a future object)", c.Instances[p].Ident.Name)
		}
	}
	path := []string{c.Instances[i].Ident.Name}
	for cur, n := parents[i][0], 0; n < len(c.Instances); cur, n = parents[cur][0], n+1 {
		path = append(path, c.Instances[cur].Ident.Name)
		if cur == i || len(parents[cur]) == 0 {
			break
		}
	}
	return "its placement chain loops: " + joinArrow(path)
}

func joinArrow(names []string) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += " → "
		}
		s += n
	}
	return s
}

var ruleAgentNotPlaced = &Rule{
	Code: "agent-not-placed", Name: "placement", Severity: bddl.Error,
	Doc: "the activity declares an agent.n.01 instance and places it, e.g. (ontop agent.n.01_1 floor.n.01_1)",
	Fix: "declare agent.n.01_1 - agent.n.01 and add (ontop agent.n.01_1 floor.n.01_1)",
	Check: func(c *Context) {
		found := false
		placed := c.placed()
		for i := range c.Instances {
			in := &c.Instances[i]
			if !in.Agent {
				continue
			}
			found = true
			if !placed[i] && in.InInit {
				c.Report(in.Ident.Range, fmt.Sprintf("the agent %s is not placed", in.Ident.Name),
					fmt.Sprintf("add (ontop %s %s)", in.Ident.Name, c.example(func(j int) bool { return c.Instances[j].RoomLit >= 0 }, "floor.n.01_1")))
			}
		}
		if !found {
			c.Report(c.section(":objects"), "the activity declares no agent.n.01 instance",
				"add agent.n.01_1 - agent.n.01 to :objects and (ontop agent.n.01_1 floor.n.01_1) to :init")
		}
	},
}

var rulePlacedTwice = &Rule{
	Code: "placed-twice", Name: "placement", Severity: bddl.Error,
	Doc: "no object is placed twice: at most one ontop, inside, under, overlaid, draped, attached or inroom literal " +
		"has it as its first argument (substances may be in several places)",
	Fix: "keep one placement literal; express other relations in the goal",
	Check: func(c *Context) {
		first := make([]int, len(c.Instances))
		for i := range first {
			first[i] = -1
		}
		for k := range c.Init {
			l := &c.Init[k]
			if l.Negated || len(l.Args) != 2 || l.Args[0].Kind != ArgInstance || !(kinematicPlacement[l.Pred] || l.Pred == "inroom") {
				continue
			}
			i := l.Args[0].Inst
			if c.Instances[i].Substance {
				continue
			}
			if first[i] < 0 {
				first[i] = k
				continue
			}
			prev := &c.Init[first[i]]
			c.Report(l.Formula.Info().Range,
				fmt.Sprintf("%s is placed twice: %s and %s at %s", c.Instances[i].Ident.Name, literalText(l), literalText(prev), at(prev.Formula.Info().Range)),
				"the sampler places each object once; keep one of them")
		}
	},
}
