package main

import "github.com/openbddl/bddl/bddl"

// parseSeverity reads the --severity flag of validate and kb check.
func parseSeverity(s string) (bddl.Severity, error) {
	sev, err := bddl.ParseSeverity(s)
	if err != nil {
		return sev, misuse("%v", err)
	}
	return sev, nil
}
