package robolab

import (
	"context"
	"strings"
	"testing"

	"github.com/openbddl/bddl/episode"
)

// hostile is a fixture written by testdata/make_hostile.py.
func hostile(name string) string { return "testdata/hostile/" + name }

// Item 4: a run file of 150 demos (data's symbol table B-tree has
// internal nodes) opens and every demo is read.
func TestManyDemosRead(t *testing.T) {
	rs := checkFile(t, hostile("many_demos.hdf5"), episode.CheckOptions{})
	if len(rs) != 150 {
		t.Fatalf("%d results, want 150", len(rs))
	}
	for _, r := range rs {
		if r.Error != "" {
			t.Fatalf("%s: %s", r.Episode, r.Error)
		}
	}
}

// Item 1: datasets declaring 10^12 rows with 16 stored: the read stops at
// the first missing chunk, without building anything per declared block.
func TestDeclaredRowsBounded(t *testing.T) {
	var st runtimeStats
	st.read()
	before := st.total
	rs := checkFile(t, hostile("declared_rows.hdf5"), episode.CheckOptions{})
	st.read()
	if len(rs) != 1 || !strings.Contains(rs[0].Error, "no data stored for steps 16–31") {
		t.Fatalf("results %+v", rs)
	}
	if got := st.total - before; got > 64<<20 {
		t.Errorf("allocated %d bytes", got)
	}
}

// Item 2: one chunk declaring 56 MiB of zeros is refused before it is read.
func TestCompressionBombRefused(t *testing.T) {
	var st runtimeStats
	st.read()
	before := st.total
	rs := checkFile(t, hostile("bomb.hdf5"), episode.CheckOptions{})
	st.read()
	if len(rs) != 1 || !strings.Contains(rs[0].Error, "8 MiB a chunk may hold") {
		t.Fatalf("results %+v", rs)
	}
	if got := st.total - before; got > 64<<20 {
		t.Errorf("allocated %d bytes", got)
	}
}

var _ = context.Background
