package rules

import (
	"context"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/transitions"
)

// PrepareCheck sets up 'bddl check --transitions' (on) with its
// --transition-options (list): the checker's evaluation then applies the
// rules after each step.
func PrepareCheck(c *batch.Checker, on bool, list string) error {
	if list != "" && !on {
		return batch.Usage("--transition-options needs --transitions")
	}
	topts, err := transitions.ParseOptions(list)
	if err != nil {
		return batch.Usage("--transition-options: %v", err)
	}
	if on {
		ec := transitions.NewEpisodeCheckerWith(c.Resolver.Base(), topts)
		c.Evaluate = func(ctx context.Context, t *batch.Task) *episode.Result {
			return ec.Check(ctx, t.Program, t.Reader, t.Options)
		}
	}
	return nil
}
