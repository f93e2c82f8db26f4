// Package suggest finds the names closest to a misspelt one, for the
// did-you-mean of an error message: a bounded Levenshtein distance
// (Distance, which bddl.EditDistance is) and the closest candidates
// (Closest, DidYouMean) as the command line offers them.
//
// suggest is a ground utility: it imports the standard library only, and
// every package may import it.
package suggest
