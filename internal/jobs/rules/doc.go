// Package rules is the jobs of 'bddl transition': listing the knowledge
// base's transition rules, explaining one with the activities that need
// it, and writing a rule's minimal sample (definition and episode). The
// rules themselves, their explanation and samples are package
// transitions'; this package adds what needs the activity libraries
// (which transitions may not import) and the command's messages, and
// returns errors of batch's classes for the exit status. cmd/bddl keeps
// the flags.
//
// It is orchestration (the jobs level): it may import every package but
// cmd.
package rules
