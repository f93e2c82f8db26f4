package serve

import (
	"errors"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// The defaults of the limits (docs/limits.md, "bddl serve").
const (
	// DefaultMaxLine bounds a request line: a session.run of a long
	// episode is a few tens of megabytes.
	DefaultMaxLine     = 256 << 20
	DefaultMaxSessions = 1024
	DefaultMaxQueued   = 1 << 30
	DefaultMaxResponse = 256 << 20
	// DefaultSpin is how long the reader polls for the next request of a
	// client in a tight loop before it blocks (spin_unix.go).
	DefaultSpin = 50 * time.Microsecond
)

// Options configure a server. The function fields are what the server
// takes from the program that hosts it (the bddl command): how a
// knowledge base is found and named, how bddl check's flags become
// options, and the records of explain and kb show, so that a request
// gets what the command would print. Each must be set.
type Options struct {
	// Version is the version the handshake announces.
	Version string
	// Log receives what no response can carry: a handler's panic, a
	// failed write. Nil discards it.
	Log io.Writer

	// LoadKB loads the knowledge base at path ("": the host's default)
	// and names it for messages (source); a base is loaded once per path.
	LoadKB func(path string) (base *kb.Base, source string, err error)
	// Guard returns the check a resolver over base runs on each
	// definition it finds (nil: none), such as the refusal of synsets
	// the embedded example knowledge base does not know.
	Guard func(base *kb.Base) func(path string, p *bddl.Problem) error
	// Read is the reading policy of a definition for bddl's
	// --goal-formulas value ("": the default).
	Read func(goalFormulas string) (bddl.Options, error)
	// Check turns a request's evaluation settings into bddl check's
	// options; its error is the request's invalid_params.
	Check func(CheckSettings) (CheckConfig, error)
	// Explain is the record of bddl explain --format json.
	Explain func(*bddl.Problem) any
	// ShowSynset is the record of bddl kb show --format json.
	ShowSynset func(*kb.Base, kb.SynsetID) any

	// The limits; zero is the default, except for Spin (DefaultSpin is
	// the bddl command's).
	MaxLine     int           // longest request line, in bytes
	MaxSessions int           // most sessions open at once
	MaxQueued   int64         // most bytes held by requests read and not yet answered
	MaxResponse int           // longest response line, in bytes
	Spin        time.Duration // poll for the next request this long before blocking (0: never)
}

// CheckSettings are the evaluation settings of session.open and check,
// under the names of bddl check's flags, with the defaults filled in.
type CheckSettings struct {
	Negation     string // --negation
	StrictPairs  bool   // --strict-pairs
	GoalFormulas string // --goal-formulas
	Hold         int    // --hold
	AtEnd        bool   // --at-end
	Lenient      bool   // --lenient
	PerStep      bool   // --per-step
	Geometry     predicates.Geometry
}

// CheckConfig is what bddl check makes of the settings.
type CheckConfig struct {
	Compile predicates.Options
	Parse   bddl.Options
	Episode episode.CheckOptions
}

// Run serves the requests read from in, writing the handshake and one
// response line each to out, until in ends; it returns when every
// response is written. Run locks the calling goroutine to its thread:
// the reader waits in read(2) and runs a session's cheap steps itself,
// so a round trip is one read and one write, with no poller wake-up and
// no hand-off between threads (measured in docs/python.md).
func Run(in io.Reader, out io.Writer, o Options) error {
	if o.LoadKB == nil || o.Read == nil || o.Check == nil || o.Explain == nil || o.ShowSynset == nil {
		return errors.New("serve: Options.LoadKB, Read, Check, Explain and ShowSynset must be set")
	}
	o.defaults()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var direct *os.File
	if f, restore, ok := pollable(out); ok {
		out, direct = f, f
		defer restore()
	}
	s := newServer(&o, out, o.MaxLine)
	s.direct = direct
	s.held.max, s.maxResponse, s.state.maxSessions = o.MaxQueued, o.MaxResponse, o.MaxSessions
	return s.serve(newSpinReader(in, o.Spin))
}

// defaults fills in the zero limits.
func (o *Options) defaults() {
	if o.MaxLine == 0 {
		o.MaxLine = DefaultMaxLine
	}
	if o.MaxSessions == 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.MaxQueued == 0 {
		o.MaxQueued = DefaultMaxQueued
	}
	if o.MaxResponse == 0 {
		o.MaxResponse = DefaultMaxResponse
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
}
