package robotcheck

import (
	"context"
	"io"
	"path/filepath"
	"sync"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/episode/dora"
	"github.com/openbddl/bddl/episode/oopsie"
	"github.com/openbddl/bddl/episode/recordings"
	"github.com/openbddl/bddl/episode/robolab"
	"github.com/openbddl/bddl/internal/jobs/batch"
)

// RoboLabFormat is the format of HDF5 files: RoboLab run files, one
// episode per data/demo_<k> group named run_0.hdf5#demo_3, and Oopsie
// episodes, which share the suffixes and are told apart by their layout
// (IsOopsie).
var RoboLabFormat = &batch.Format{
	Name:     "hdf5",
	Suffixes: []string{".hdf5", ".h5"},
	List:     listHDF5,
	Open:     openHDF5,
}

// DoraFormat is the format of Dora-record episodes, checked through their
// metadata.json, which a walk of a session finds.
var DoraFormat = &batch.Format{
	Name:     "dora-record",
	Suffixes: []string{dora.MetadataFile},
}

func init() {
	DoraFormat.Open = openRecording // set here: Open refers back to the format
	batch.RegisterFormat(DoraFormat)
	batch.RegisterFormat(RoboLabFormat)
}

var oopsieCache sync.Map // path → bool

// IsOopsie reports whether an HDF5 file has the Oopsie layout (read once
// per path).
func IsOopsie(path string) bool {
	if v, ok := oopsieCache.Load(path); ok {
		return v.(bool)
	}
	is := oopsie.IsOopsie(path)
	oopsieCache.Store(path, is)
	return is
}

// Layout is recordings.Oopsie, recordings.Dora or "" for an input.
func Layout(path string) string {
	switch f := batch.FormatOf(path); {
	case f == DoraFormat && filepath.Base(path) == dora.MetadataFile:
		return recordings.Dora
	case f == RoboLabFormat && IsOopsie(path):
		return recordings.Oopsie
	}
	return ""
}

// HasRecordings reports whether any input is an Oopsie or Dora recording.
func HasRecordings(inputs []batch.Input) bool {
	for _, in := range inputs {
		if Layout(in.Path) != "" {
			return true
		}
	}
	return false
}

// listHDF5 and openHDF5 dispatch an HDF5 file by its layout: an Oopsie
// episode or a RoboLab run file.
func listHDF5(_ context.Context, path string) ([]string, error) {
	if IsOopsie(path) {
		return nil, nil
	}
	return robolab.DemoNames(path)
}

func openHDF5(ctx context.Context, ep batch.Episode, o batch.OpenOptions) (*episode.Reader, io.Closer, error) {
	if ep.Sub == "" && IsOopsie(ep.Path) {
		return openRecording(ctx, ep, o)
	}
	return openDemo(ctx, ep, o)
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }
