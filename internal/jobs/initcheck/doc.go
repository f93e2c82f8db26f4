// Package initcheck is bddl check --init: does :init hold on these
// states? OmniGibson task folders, *_instances folders, instance files and
// globs of them are converted in memory (as episode from-omnigibson
// converts them) and episode files read; each state gets one Result
// naming the literals that are not true, and WriteSummary sums them up
// per activity.
//
// Jobs resolves the paths into Jobs (one converter per template and
// definition, one evaluator per definition); a Runner evaluates them on
// a pool of workers, writing each Result in input order and appending it
// to a results file that a later run resumes from (Resume). A Job may
// also carry its own evaluation (Own): LIBERO episodes are checked that
// way, with the same sharding, results file and report.
//
// initcheck is orchestration (internal/jobs): it may import the engine's
// packages, internal/jobs/batch and the ground utilities of internal/,
// never cmd.
package initcheck
