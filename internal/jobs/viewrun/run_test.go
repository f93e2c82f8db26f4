package viewrun

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// TestEpisodeRefuses: a missing path is misuse; a file that is no
// episode is an error of its own, and no page data comes back.
func TestEpisodeRefuses(t *testing.T) {
	t.Parallel()
	o := Options{Base: kb.Default(), Resolver: batch.NewResolver(kb.Default(), predicates.Options{}), Frames: 10, Note: func(string) {}}
	_, err := Episode(context.Background(), filepath.Join(t.TempDir(), "missing.jsonl"), o)
	if ue := (*UsageError)(nil); !errors.As(err, &ue) {
		t.Errorf("Episode(missing) error = %v, want a UsageError", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, []byte("not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Episode(context.Background(), bad, o)
	if ue := (*UsageError)(nil); err == nil || errors.As(err, &ue) || d != nil {
		t.Errorf("Episode(not an episode) = %v, %v, want a non-usage error", d, err)
	}
}
