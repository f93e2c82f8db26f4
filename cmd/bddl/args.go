package main

import "github.com/openbddl/bddl/internal/cliflag"

// Arguments and command groups (internal/cliflag).
var (
	minArgs   = cliflag.MinArgs
	exactArgs = cliflag.ExactArgs
	asGroup   = cliflag.Group
)
