// Package serve is the engine behind the openbddl Python client: a
// server that reads JSON requests, one a line, and writes one JSON
// response a line (the protocol of bddl serve, described method by
// method in docs/python.md; its JSON Schema is bddl schema serve).
//
// Run serves a reader and a writer until the input ends. Requests carry
// ids and many are in flight; those of one session (an episode checked
// step by step with the machinery of bddl check) run in order on the
// session's worker, the others in parallel. Limits bound what one
// client can hold (Options, docs/limits.md; CheckLimits checks them).
// Detach makes the process a server of its parent: Ctrl-C ignored, exit
// when the parent dies.
//
// What the server takes from the program hosting it (the bddl command)
// comes through Options as plain values and functions: how a knowledge
// base is loaded and named, how bddl check's flags become options, the
// records of explain and kb show. The package never imports the
// command, so another Go program can embed the server.
package serve
