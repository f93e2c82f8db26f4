package batch

import "fmt"

// A job tells its command how it ended through the class of its error,
// which the command maps to its exit status: a UsageError is the
// caller's mistake (exit 2), a FindingsError a run that reported
// problems (exit 1), an InterruptedError a run cut short by a signal;
// any other error is the job's own failure.

// A UsageError is a problem of the request (a flag's value, a path, a
// definition) rather than of the data.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usage is a UsageError with a formatted message.
func Usage(format string, args ...any) error { return &UsageError{fmt.Errorf(format, args...)} }

// A FindingsError is a run that ended with findings; Err is what to say
// about them, nil when they were reported already.
type FindingsError struct{ Err error }

func (e *FindingsError) Error() string {
	if e.Err == nil {
		return "findings"
	}
	return e.Err.Error()
}
func (e *FindingsError) Unwrap() error { return e.Err }

// Findings is a FindingsError saying err (nil: nothing more to say).
func Findings(err error) error { return &FindingsError{err} }

// An InterruptedError is a run cut short by a signal; Err says how far
// it came.
type InterruptedError struct{ Err error }

func (e *InterruptedError) Error() string { return e.Err.Error() }
func (e *InterruptedError) Unwrap() error { return e.Err }
