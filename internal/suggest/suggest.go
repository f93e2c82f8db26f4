package suggest

import (
	"sort"
	"strings"
)

// Closest returns up to three of candidates closest to name, for a
// did-you-mean; a candidate that contains name or is contained in it
// counts as close too, so a prefix finds its completions.
func Closest(name string, candidates []string) []string {
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
		d := Distance(name, c, limit)
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

// DidYouMean is "; did you mean X?" for the suggestions, or "".
func DidYouMean(name string, candidates []string) string {
	s := Closest(name, candidates)
	switch len(s) {
	case 0:
		return ""
	case 1:
		return "; did you mean " + s[0] + "?"
	}
	return "; did you mean one of " + strings.Join(s, ", ") + "?"
}

// Distance is the Levenshtein distance of a and b (in bytes), or
// limit+1 when it exceeds limit; every did-you-mean of bddl uses it
// (bddl.EditDistance is this).
func Distance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	var buf [2][64]int
	prev, cur := buf[0][:0], buf[1][:0]
	if len(b)+1 > 64 {
		prev, cur = make([]int, 0, len(b)+1), make([]int, 0, len(b)+1)
	}
	for j := 0; j <= len(b); j++ {
		prev = append(prev, j)
	}
	cur = cur[:len(b)+1]
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev, cur = cur, prev[:len(b)+1]
	}
	return prev[len(b)]
}
