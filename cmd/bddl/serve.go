package main

import (
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
	o := serveHost(opts.globalOptions)
	o.MaxLine, o.MaxSessions, o.MaxQueued, o.MaxResponse, o.Spin = opts.maxLine, opts.maxSessions, opts.maxQueued, opts.maxResponse, opts.spin
	if err := o.CheckLimits(); err != nil {
		return misuse("%v", err)
	}
	// A server is started by a client, often one per worker process
	// (a multiprocessing.Pool): its knowledge-base note would be printed
	// once per worker and tells the client's user nothing the client's
	// kb= does not; the client says which it passes.
	opts.kbNoted = true
	defer serve.Detach()()
	return serve.Run(opts.in, termsafe.Raw(opts.out), o)
}
