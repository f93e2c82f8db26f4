// Package liberocheck runs check over LIBERO episode files as a batch:
// the shard kept, a results file resumed (episodes with a verdict in it
// are not checked again), one line per episode and the table of
// BEHAVIOR-1K batches, or a report per episode. Checking one file is the
// libero package's (libero.CheckFile); this package only orchestrates,
// with internal/jobs/batch, so it sits at the jobs level: it may import
// everything but cmd.
package liberocheck
