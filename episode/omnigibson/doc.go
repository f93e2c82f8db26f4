// Package omnigibson reads the task states the reference simulator
// (OmniGibson) writes for pre-sampled BEHAVIOR tasks and converts them
// into recorded episodes (package episode) that bddl check evaluates.
package omnigibson
