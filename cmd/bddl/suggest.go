package main

import (
	"sort"
	"strings"

	"github.com/openbddl/bddl/bddl"
)

// suggest returns up to three of candidates closest to name, for a
// did-you-mean; a candidate that contains name or is contained in it
// counts as close too, so a prefix finds its completions.
func suggest(name string, candidates []string) []string {
	type scored struct {
		name string
		dist int
	}
	limit := max(2, len(name)/3)
	var best []scored
	seen := map[string]bool{}
	for _, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		d := bddl.EditDistance(name, c, limit)
		if d > limit && len(name) >= 4 && strings.Contains(c, name) {
			d = limit
		}
		if d <= limit {
			best = append(best, scored{c, d})
		}
	}
	sort.Slice(best, func(i, j int) bool {
		if best[i].dist != best[j].dist {
			return best[i].dist < best[j].dist
		}
		return best[i].name < best[j].name
	})
	var out []string
	// Only the closest: one typo's correction, not its neighbours.
	for i := 0; i < len(best) && i < 3 && best[i].dist == best[0].dist; i++ {
		out = append(out, best[i].name)
	}
	return out
}

// didYouMean is ": did you mean X?" for the suggestions, or "".
func didYouMean(name string, candidates []string) string {
	s := suggest(name, candidates)
	switch len(s) {
	case 0:
		return ""
	case 1:
		return "; did you mean " + s[0] + "?"
	}
	return "; did you mean one of " + strings.Join(s, ", ") + "?"
}
