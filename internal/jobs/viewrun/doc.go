// Package viewrun is bddl view's run: the episode checked (per step)
// against its activity, found as check finds it, and drawn as one HTML
// page by package view, with the scene's furniture. The command line
// chooses the files and builds the resolver.
//
// viewrun is orchestration (internal/jobs): it may import view, the
// engine's packages, internal/jobs/batch and the ground utilities of
// internal/, never cmd.
package viewrun
