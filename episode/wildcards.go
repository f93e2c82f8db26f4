package episode

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/openbddl/bddl/bddl"
)

// Wildcards finds the header's instances that stand for a wildcard of
// the definition: with cabinet.n.01_* declared, a recording's
// cabinet.n.01_2 and cabinet.n.01_3 (not declared themselves) are its
// expansion. The result is what predicates.Options.Wildcards takes; nil
// when the definition has no wildcard or the header expands none. A
// recording must list the instances a wildcard stands for in its
// header's objects.
func Wildcards(problem *bddl.Problem, h *Header) map[string][]string {
	wild := map[string]string{} // "cabinet.n.01_" → "cabinet.n.01_*" as declared
	declared := map[string]bool{}
	for _, d := range problem.Objects {
		for _, inst := range d.Instances {
			if bddl.IsWildcard(inst.Key()) {
				wild[strings.TrimSuffix(inst.Key(), "*")] = inst.Name
			} else {
				declared[inst.Key()] = true
			}
		}
	}
	if len(wild) == 0 {
		return nil
	}
	var out map[string][]string
	for name := range h.Objects {
		key := bddl.Fold(name)
		i := strings.LastIndexByte(key, '_')
		if declared[key] || i < 0 {
			continue
		}
		if _, err := strconv.Atoi(key[i+1:]); err != nil {
			continue
		}
		if w, ok := wild[key[:i+1]]; ok {
			if out == nil {
				out = map[string][]string{}
			}
			out[w] = append(out[w], name)
		}
	}
	for _, names := range out {
		slices.SortFunc(names, func(a, b string) int {
			na, _ := strconv.Atoi(a[strings.LastIndexByte(a, '_')+1:])
			nb, _ := strconv.Atoi(b[strings.LastIndexByte(b, '_')+1:])
			return cmp.Or(cmp.Compare(na, nb), cmp.Compare(a, b))
		})
	}
	return out
}
