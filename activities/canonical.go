package activities

import (
	"strconv"
	"strings"

	"github.com/openbddl/bddl/bddl"
)

// CanonicalName is the one name of a definition in every record and
// summary, however it was passed: the directory's name for
// <activity>/problem<N>.bddl, else the problem's name without its
// instance suffix (baking_a_tray_of_cookies-0 → baking_a_tray_of_cookies),
// as a library names its activities. path may be "" (standard input).
func CanonicalName(path string, prob *bddl.Problem) string {
	if path != "" {
		if name, _, ok := ActivityPath(path); ok {
			return name
		}
	}
	if prob == nil {
		return ""
	}
	return StripInstance(prob.Name.Name)
}

// StripInstance drops a trailing "-<N>" instance suffix from a problem
// name.
func StripInstance(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i <= 0 || i == len(name)-1 {
		return name
	}
	if _, err := strconv.Atoi(name[i+1:]); err != nil {
		return name
	}
	return name[:i]
}
