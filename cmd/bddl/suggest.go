package main

import suggestpkg "github.com/openbddl/bddl/internal/suggest"

// didYouMean is "; did you mean X?" for the suggestions, or "".
func didYouMean(name string, candidates []string) string {
	return suggestpkg.DidYouMean(name, candidates)
}
