package main

import (
	"github.com/spf13/pflag"

	"github.com/openbddl/bddl/internal/cliflag"
)

// addOutputFlag registers -o/--output and hidden older spellings
// (cliflag.AddOutput).
func addOutputFlag(f *pflag.FlagSet, p *string, value, usage string, deprecated ...string) {
	cliflag.AddOutput(f, p, value, usage, deprecated...)
}

// deprecatedAnnotation marks the hidden older spellings.
const deprecatedAnnotation = cliflag.DeprecatedAnnotation
