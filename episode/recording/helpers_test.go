package recording

import (
	"io"
	"strings"
	"testing"

	"github.com/openbddl/bddl/episode"
)

// sliceSource is a stream held in memory.
type sliceSource struct {
	name string
	t    []float64
	v    [][]float64
}

func (s *sliceSource) Name() string { return s.name }
func (s *sliceSource) Open() (Series, error) {
	return &sliceSeries{s: s, i: -1}, nil
}

type sliceSeries struct {
	s *sliceSource
	i int
}

func (c *sliceSeries) Next() (float64, []float64, error) {
	c.i++
	if c.i >= len(c.s.t) {
		return 0, nil, io.EOF
	}
	return c.s.t[c.i], c.s.v[c.i], nil
}
func (c *sliceSeries) Close() error { return nil }

// regular makes a stream of n samples at hz from t0, value f(i).
func regular(name string, t0, hz float64, n int, f func(i int) []float64) *sliceSource {
	s := &sliceSource{name: name}
	for i := range n {
		s.t = append(s.t, t0+float64(i)/hz)
		s.v = append(s.v, f(i))
	}
	return s
}

func trackOf(text string) func() (*TrackReader, error) {
	return func() (*TrackReader, error) { return NewTrackReader(strings.NewReader(text), "t.objects.jsonl") }
}

// joinAll joins and reads the whole episode.
func joinAll(t *testing.T, o JoinOptions) (*episode.Header, []*episode.Step, error) {
	t.Helper()
	s, err := Join(o)
	if err != nil {
		return nil, nil, err
	}
	h, steps, err := episode.ReadAll(s, "joined")
	if err != nil {
		t.Fatalf("reading the joined episode: %v", err)
	}
	return h, steps, s.Err()
}
