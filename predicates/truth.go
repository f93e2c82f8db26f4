package predicates

import "fmt"

// Truth is a value of Kleene's strong three-valued logic. Unknown is the
// zero value on purpose: a check that was never computed, a frame slot never
// written or a state field never recorded can never be mistaken for success.
type Truth uint8

const (
	// Unknown means the recording lacks what the check needs.
	Unknown Truth = iota
	// False means the check was decided and does not hold.
	False
	// True means the check was decided and holds.
	True
)

var truthNames = [...]string{Unknown: "unknown", False: "false", True: "true"}

func (t Truth) String() string {
	if int(t) < len(truthNames) {
		return truthNames[t]
	}
	return "truth(?)"
}

// MarshalText writes a Truth as its name, so JSON reports read naturally.
func (t Truth) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads a Truth written by MarshalText.
func (t *Truth) UnmarshalText(b []byte) error {
	for v, name := range truthNames {
		if string(b) == name {
			*t = Truth(v)
			return nil
		}
	}
	return fmt.Errorf("predicates: %q is not a truth value (true, false or unknown)", b)
}

// TruthOf converts a decided boolean.
func TruthOf(b bool) Truth {
	if b {
		return True
	}
	return False
}

// Known reports whether t is True or False.
func (t Truth) Known() bool { return t == True || t == False }

// Not swaps True and False and leaves Unknown alone.
func (t Truth) Not() Truth {
	switch t {
	case True:
		return False
	case False:
		return True
	}
	return Unknown
}

// And is Kleene conjunction: False dominates, then Unknown.
func (t Truth) And(u Truth) Truth {
	if t == False || u == False {
		return False
	}
	if t == True && u == True {
		return True
	}
	return Unknown
}

// Or is Kleene disjunction: True dominates, then Unknown.
func (t Truth) Or(u Truth) Truth {
	if t == True || u == True {
		return True
	}
	if t == False && u == False {
		return False
	}
	return Unknown
}

// Implies is (or (not t) u).
func (t Truth) Implies(u Truth) Truth { return t.Not().Or(u) }

// exactlyN folds the counts of a forn quantifier (SEMANTICS.md A1): True
// iff exactly n children are True and all others are False; False iff more
// than n are True or even counting every Unknown as True there are fewer
// than n; Unknown otherwise.
func exactlyN(nTrue, nUnknown, n int) Truth {
	switch {
	case nTrue > n || nTrue+nUnknown < n:
		return False
	case nTrue == n && nUnknown == 0:
		return True
	}
	return Unknown
}

// atLeast folds a "at least n of these" count the same way: True when
// the definite count reaches n, False when even the possible count cannot.
func atLeast(definite, possible, n int) Truth {
	switch {
	case definite >= n:
		return True
	case possible < n:
		return False
	}
	return Unknown
}
