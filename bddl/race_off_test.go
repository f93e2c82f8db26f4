//go:build !race

package bddl

const raceEnabled = false
