// Package checkrun is one run of bddl check over a batch of episodes:
// the episodes still to check (a results file it appends to is resumed
// from: episodes already in it are skipped, those that ended in an error
// retried), the checker run on a pool of workers, each result written
// to the results file as it completes and to standard output in input
// order, each episode's timeline plot, and the summary with the run's
// ending (clean, failed or interrupted) for the command's exit status.
//
// The command builds the batch.Checker (its options and the hooks its
// extensions add) and keeps its flags; checkrun does the rest.
//
// checkrun is orchestration (internal/jobs): it may import the engine's
// packages, internal/jobs/batch and the ground utilities of internal/,
// never cmd.
package checkrun
