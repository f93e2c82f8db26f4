// Package kbresolve decides which knowledge base and activity library a
// bddl run uses, and why: --kb, else $BDDL_KB, else bddl.toml's kb, else
// the BEHAVIOR-1K tree around an input, else the installed bddl package
// the Python client found, else the embedded example knowledge base. It
// loads the base so chosen, says once on stderr which it is when nothing
// chose it explicitly, and refuses the embedded default for definitions
// it cannot serve (Guard, GuardedResolver), before any finding or verdict
// comes out of a base that would give bogus ones. Report lists the
// resolved settings and where each came from, for bddl config.
//
// kbresolve is orchestration (internal/jobs): it may import the engine's
// packages (kb, bddl, activities), internal/jobs/batch and the ground
// utilities of internal/ (config, b1klayout, fsutil), never cmd.
package kbresolve
