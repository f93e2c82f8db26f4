package main

import "github.com/openbddl/bddl/internal/cliflag"

// addOutputFlag registers -o/--output and hidden older spellings.
var addOutputFlag = cliflag.AddOutput

// deprecatedAnnotation marks the hidden older spellings.
const deprecatedAnnotation = cliflag.DeprecatedAnnotation
