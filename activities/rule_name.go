package activities

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/openbddl/bddl/bddl"
)

// ActivityPath splits a path in the BEHAVIOR-1K layout,
// .../<activity>/problem<N>.bddl, into the activity and N. ok is false for
// other paths.
func ActivityPath(path string) (activity string, n int, ok bool) {
	path = strings.ReplaceAll(path, "\\", "/")
	dir, file := "", path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		dir, file = path[:i], path[i+1:]
	}
	if j := strings.LastIndexByte(dir, '/'); j >= 0 {
		dir = dir[j+1:]
	}
	num, found := strings.CutPrefix(file, "problem")
	if !found {
		return "", 0, false
	}
	num, found = strings.CutSuffix(num, ".bddl")
	if !found || num == "" || dir == "" || dir == "." || dir == ".." {
		return "", 0, false
	}
	for i := 0; i < len(num); i++ {
		if num[i] < '0' || num[i] > '9' {
			return "", 0, false
		}
	}
	n, err := strconv.Atoi(num)
	if err != nil {
		return "", 0, false
	}
	return dir, n, true
}

var ruleProblemName = &Rule{
	Code: "problem-name", Name: "name", Severity: bddl.Error,
	Doc: "the problem is named <activity>-<N> after its file <activity>/problem<N>.bddl (compared case-insensitively, " +
		"as BDDL names are; files outside that layout are not checked; problems of the legacy igibson domain may be named " +
		"<activity>_<N>, as BEHAVIOR-100 named them)",
	Fix: "rename the problem, or move the file",
	Check: func(c *Context) {
		if c.Problem.Source == nil {
			return
		}
		activity, n, ok := ActivityPath(c.Problem.Source.Name)
		if !ok {
			return
		}
		want := fmt.Sprintf("%s-%d", activity, n)
		if c.Problem.Name.Key() == bddl.Fold(want) {
			return
		}
		// BEHAVIOR-100 named its problems <activity>_<N>; its definitions
		// keep that spelling under the legacy domain.
		if c.Problem.Domain.Key() == "igibson" && c.Problem.Name.Key() == bddl.Fold(fmt.Sprintf("%s_%d", activity, n)) {
			return
		}
		c.Report(c.whole(), fmt.Sprintf("problem %s is in %s/problem%d.bddl, so it must be named %s", c.Problem.Name.Name, activity, n, want),
			fmt.Sprintf("write (define (problem %s) ...)", want))
	},
}
