package main

import (
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/internal/termsafe"
	"github.com/openbddl/bddl/serve"
)

func init() { subcommands = append(subcommands, newServeCmd) }

type serveOptions struct {
	*globalOptions
	maxLine     int
	spin        time.Duration
	maxSessions int
	maxQueued   int64
	maxResponse int
}

func newServeCmd(g *globalOptions) *cobra.Command {
	opts := &serveOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Answer requests as JSON Lines on stdin/stdout (the engine of the Python package)",
		Long: `Serve is a long-lived engine for another program (the openbddl Python
package): it reads one JSON request per line on standard input and writes
one JSON response per line on standard output. Its first line is the
handshake {"protocol": 1, "version": ..., "methods": [...]}. A request is
{"id": ID, "method": M, "params": {...}}; its response {"id": ID,
"result": ...} or {"id": ID, "error": {"code", "message", position}}.
Many requests may be in flight: responses come as requests complete, the
requests of one session in the order sent.

Methods: validate, explain, kb.show, check, sample, session.open,
session.step, session.run, session.init, session.close. A session checks
an episode step by step; each step's result is the record 'bddl check
--format json' prints for the episode ended at that step. The messages'
JSON Schema is 'bddl schema serve'; docs/python.md describes each method.

A malformed line gets an error response and the server goes on; a line
longer than --max-line bytes is skipped with an error. One client cannot
take the server down for the others: the data of requests read and not
yet answered is bounded (--max-queued; past it a request is answered
"overloaded"), so are the sessions open (--max-sessions) and a
response's size (--max-response); docs/limits.md lists every limit. The server ends
when standard input ends (after answering every request) or when its
parent process exits; it ignores Ctrl-C (SIGINT), which its parent
handles: end an interactive one with Ctrl-D.`,
		Example: `  echo '{"id":1,"method":"explain","params":{"activity":"tidying_the_living_room"}}' | bddl serve
  bddl --kb BEHAVIOR-1K/bddl3/bddl serve     # as the Python package starts it`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error { return runServe(opts) },
	}
	cmd.Flags().IntVar(&opts.maxLine, "max-line", serve.DefaultMaxLine, "longest request line accepted, in bytes")
	cmd.Flags().IntVar(&opts.maxSessions, "max-sessions", serve.DefaultMaxSessions, "most sessions open at once")
	cmd.Flags().Int64Var(&opts.maxQueued, "max-queued", serve.DefaultMaxQueued, "most bytes held by requests read and not yet answered, across all sessions")
	cmd.Flags().IntVar(&opts.maxResponse, "max-response", serve.DefaultMaxResponse, "longest response line, in bytes")
	cmd.Flags().DurationVar(&opts.spin, "spin", serve.DefaultSpin, "poll for the next request this long before blocking, while a client sends them quickly (0: never)")
	return cmd
}

func runServe(opts *serveOptions) error {
	if opts.maxLine < 1<<10 {
		return misuse("--max-line %d: at least 1024 bytes", opts.maxLine)
	}
	if opts.maxSessions < 1 {
		return misuse("--max-sessions %d: at least 1", opts.maxSessions)
	}
	if opts.maxQueued < int64(opts.maxLine) {
		return misuse("--max-queued %d: at least --max-line (%d)", opts.maxQueued, opts.maxLine)
	}
	if opts.maxResponse < 1<<10 {
		return misuse("--max-response %d: at least 1024 bytes", opts.maxResponse)
	}
	if opts.spin < 0 || opts.spin > time.Second {
		return misuse("--spin %v: between 0 and 1s", opts.spin)
	}
	// A server is started by a client, often one per worker process
	// (a multiprocessing.Pool): its knowledge-base note would be printed
	// once per worker and tells the client's user nothing the client's
	// kb= does not; the client says which it passes.
	opts.kbNoted = true
	// Ctrl-C in the parent's terminal reaches the server too; the parent
	// decides when the server ends (by closing its input).
	signal.Ignore(os.Interrupt)
	stop := watchParent(os.Getppid(), time.Second)
	defer stop()
	o := serveHost(opts.globalOptions)
	o.MaxLine, o.MaxSessions, o.MaxQueued, o.MaxResponse, o.Spin = opts.maxLine, opts.maxSessions, opts.maxQueued, opts.maxResponse, opts.spin
	return serve.Run(opts.in, protocolStream(opts.out), o)
}

// protocolStream is the stream the responses are written to: the
// command's output without the escaping writer every command's output
// passes (termsafe), which is for text read on a terminal. A response is
// JSON, whose encoder escapes control bytes itself, and the escaping
// writer hid the pipe from the server's pollable (every response then went through
// the writer goroutine: 13 µs more a round trip).
func protocolStream(out io.Writer) io.Writer {
	if w, ok := out.(*termsafe.Writer); ok {
		return w.Unwrap()
	}
	return out
}

// watchParent exits the process when its parent dies (it is re-parented):
// standard input does not end when a forked sibling still holds the
// pipe's other end. PR_SET_PDEATHSIG is not used: it fires when the
// parent *thread* that started the server ends, which in Python is any
// thread that happened to start the engine.
func watchParent(parent int, every time.Duration) (stop func()) {
	done := make(chan struct{})
	if parent <= 1 {
		return func() {}
	}
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if os.Getppid() != parent {
					os.Exit(exitOK)
				}
			}
		}
	}()
	return func() { close(done) }
}
