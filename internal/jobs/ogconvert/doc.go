// Package ogconvert is the job of 'bddl episode from-omnigibson': it
// resolves paths into conversion jobs of package episode/omnigibson (one
// Converter per template and definition, each definition read once and
// named by its canonical name), runs them on a pool of workers with
// progress and cancellation, writes a copy of each definition beside its
// episodes and sums the run up. Convert takes the command's request
// whole (its checks, the knowledge base loaded when they pass, the
// optional dataset) and returns batch's error classes. Converting one
// state is episode/omnigibson's; cmd/bddl keeps the flags.
//
// It is orchestration (the jobs level): it may import every package but
// cmd.
package ogconvert
