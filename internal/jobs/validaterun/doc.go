// Package validaterun is bddl validate's run: definition files and
// libraries validated on a pool of workers (Files, Library), each into a
// report.File in the order of the inputs, and the LIBERO definitions
// among the inputs validated by the LIBERO dialect's rules and printed as
// validate prints BEHAVIOR-1K's findings (Libero). Choosing the inputs,
// the knowledge base and the output format is the command line's.
//
// validaterun is orchestration (internal/jobs): it may import the
// engine's packages (bddl, kb, activities, activities/report),
// internal/jobs/batch and the ground utilities of internal/, never cmd.
package validaterun
