package bddl

import "fmt"

// SeverityNames is the one spelling of severities in every flag, text
// and JSON record; "note" is accepted on input as an alias of "info".
const SeverityNames = "error, warning or info"

// ParseSeverity reads a --severity flag's value.
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "error":
		return Error, nil
	case "warning":
		return Warning, nil
	case "info", "note":
		return Info, nil
	}
	return 0, fmt.Errorf("--severity %q: use %s", s, SeverityNames)
}
