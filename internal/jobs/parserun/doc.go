// Package parserun is bddl parse's run: definition files read and parsed
// by a pool of workers while the paths are still being walked, each
// file's diagnostics (text) and, with JSON, its record (Record: the AST
// with source ranges and the diagnostics) printed in input order as soon
// as it and all before it are done, and the count line. No AST outlives
// its file's report, and each worker reuses its read buffer.
//
// parserun is orchestration (internal/jobs): it may import bddl,
// internal/jobs/batch and the ground utilities of internal/, never cmd.
package parserun
