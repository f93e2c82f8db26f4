// Package show renders what the knowledge base knows, for bddl kb show
// and kb tree (and the server's synset requests): a synset's record (its
// hypernyms and hyponyms, properties and parameters, thresholds, object
// categories and models, rooms, transition rules) as JSON or as text for
// people, and the hierarchy below a synset as an indented tree or one
// JSON record per node.
//
// show may import kb and the standard library; it knows nothing of the
// command line.
package show
