package main

import "github.com/openbddl/bddl/activities"

// Names and definition copies are activities' (activities/names.go).
var (
	isPathLike  = activities.IsPathLike
	copySources = activities.CopySources
)

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
