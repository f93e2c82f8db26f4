package batch

import (
	"sort"
	"strings"

	"github.com/openbddl/bddl/activities"
)

// ActivityNames are the names of the embedded examples and of the
// activities of the library in dir ("" for none) that start with prefix,
// sorted and each once: what a shell completes an activity name from.
func ActivityNames(dir, prefix string) []string {
	libs := []*activities.Library{activities.Examples()}
	if dir != "" {
		if lib, err := LoadLibrary(dir, nil); err == nil {
			libs = append(libs, lib)
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, lib := range libs {
		for _, a := range lib.Activities {
			if !seen[a.Name] && strings.HasPrefix(a.Name, prefix) {
				seen[a.Name] = true
				out = append(out, a.Name)
			}
		}
	}
	sort.Strings(out)
	return out
}
