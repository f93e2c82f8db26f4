package main

import "github.com/openbddl/bddl/activities"

// Names and definition copies are activities' (activities/names.go);
// these are the spellings validate, explain and check's run use.

func isPathLike(arg string) bool { return activities.IsPathLike(arg) }

func copySources(episodePaths []string) []string { return activities.CopySources(episodePaths) }

// resolvedName is a definition found by name: a file of the library, or
// an embedded example.
type resolvedName struct {
	path    string
	example *activities.Activity
}

func resolveName(name, library string) (resolvedName, error) {
	p, ex, err := activities.ResolveName(name, library)
	return resolvedName{p, ex}, err
}
