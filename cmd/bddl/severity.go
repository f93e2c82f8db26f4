package main

import "github.com/openbddl/bddl/bddl"

// severityNames is the one spelling of severities in every flag, text
// and JSON record; "note" is accepted on input as an alias of "info".
const severityNames = "error, warning or info"

// parseSeverity reads the --severity flag of validate and kb check.
func parseSeverity(s string) (bddl.Severity, error) {
	switch s {
	case "error":
		return bddl.Error, nil
	case "warning":
		return bddl.Warning, nil
	case "info", "note":
		return bddl.Info, nil
	}
	return 0, misuse("--severity %q: use %s", s, severityNames)
}
