// Package samplerun is the job of 'bddl sample' on BEHAVIOR-1K
// definitions: the scenes each activity may be sampled in (the one
// named, the scene files given, else the knowledge base's scenes that
// have its in-room objects, shuffled by seed), its configurations run on
// a pool of workers with progress and cancellation and reported in order,
// and a copy of each definition written beside its episodes. Sampling one
// configuration is package sampler's. Sample takes the command's request
// whole: the arguments resolved into jobs (files, directories, globs,
// names, --after's rule), the shard kept, the scenes and sampling lists
// read; cmd/bddl keeps the flags.
//
// It is orchestration (the jobs level): it may import every package but
// cmd.
package samplerun
