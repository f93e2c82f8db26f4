package main

import "github.com/openbddl/bddl/internal/suggest"

// didYouMean is "; did you mean X?" for the closest candidates, or "".
var didYouMean = suggest.DidYouMean
