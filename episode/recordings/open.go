package recordings

import (
	"github.com/openbddl/bddl/episode/dora"
	"github.com/openbddl/bddl/episode/oopsie"
	"github.com/openbddl/bddl/episode/recording"
	"github.com/openbddl/bddl/predicates"
)

// Joined is an open recording as an episode stream.
type Joined struct {
	*recording.Stream
	// Oopsie is the episode file read, for its metadata; nil for Dora.
	Oopsie *oopsie.Episode
	close  func()
}

// Close closes the stream and the recording.
func (j *Joined) Close() { j.close() }

// Open joins a recording with its track.
func (e Episode) Open(o recording.Options) (*Joined, error) {
	if e.Layout == Dora {
		d, err := dora.OpenEpisode(e.Path)
		if err != nil {
			return nil, err
		}
		s, err := d.Join(o)
		if err != nil {
			return nil, err
		}
		return &Joined{Stream: s, close: s.Close}, nil
	}
	f, err := oopsie.Open(e.Path)
	if err != nil {
		return nil, err
	}
	s, err := f.Join(o)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Joined{Stream: s, Oopsie: f, close: func() { s.Close(); f.Close() }}, nil
}

// Instances are the names of a compiled activity's instances, by object
// id, as recording.Options wants them.
func Instances(prog *predicates.Program) []string {
	if prog == nil {
		return nil
	}
	out := make([]string, prog.NumObjects())
	for i := range out {
		out[i] = prog.Name(predicates.ObjectID(i))
	}
	return out
}
