package main

import suggestpkg "github.com/openbddl/bddl/internal/suggest"

// suggest returns up to three of candidates closest to name, for a
// did-you-mean (internal/suggest).
func suggest(name string, candidates []string) []string { return suggestpkg.Closest(name, candidates) }

// didYouMean is "; did you mean X?" for the suggestions, or "".
func didYouMean(name string, candidates []string) string {
	return suggestpkg.DidYouMean(name, candidates)
}
