package dora

import (
	"fmt"
	"math"
	"strconv"

	"github.com/openbddl/bddl/episode/recording"
)

// baseSource gives the base pose [x, y, yaw] of a base-state stream.
type baseSource struct {
	e      *Episode
	stream string
}

func (b *baseSource) Name() string { return b.stream }

func (b *baseSource) Open() (recording.Series, error)      { return b.open(false) }
func (b *baseSource) OpenTimes() (recording.Series, error) { return b.open(true) }

func (b *baseSource) open(timesOnly bool) (recording.Series, error) {
	sf, err := b.e.Open(b.stream)
	if err != nil {
		return nil, err
	}
	if sf.Kind == Named {
		sf.Close()
		return nil, &Error{File: sf.Path, Column: b.stream, Row: -1, Msg: "named values: not a base state"}
	}
	return &series{sf: sf, r: sf.Reader(timesOnly), pick: func(s *Sample, out []float64) ([]float64, error) {
		if len(s.Values) < 10 {
			return nil, fmt.Errorf("%d values, a base state has position, quaternion and rpy (10 at least)", len(s.Values))
		}
		yaw := s.Values[9]
		if math.IsNaN(yaw) { // no rpy: the yaw of the quaternion x, y, z, w
			qx, qy, qz, qw := s.Values[3], s.Values[4], s.Values[5], s.Values[6]
			yaw = math.Atan2(2*(qw*qz+qx*qy), 1-2*(qy*qy+qz*qz))
		}
		return append(out, s.Values[0], s.Values[1], yaw), nil
	}}, nil
}

// valueSource gives one value of a stream: a named value, or the value
// at an index of a list of numbers.
type valueSource struct {
	e      *Episode
	stream string
	value  string
}

func (v *valueSource) Name() string { return v.stream + ":" + v.value }

func (v *valueSource) Open() (recording.Series, error)      { return v.open(false) }
func (v *valueSource) OpenTimes() (recording.Series, error) { return v.open(true) }

func (v *valueSource) open(timesOnly bool) (recording.Series, error) {
	sf, err := v.e.Open(v.stream)
	if err != nil {
		return nil, err
	}
	idx := -1
	pick := func(s *Sample, out []float64) ([]float64, error) {
		if s.Names != nil {
			if idx < 0 || idx >= len(s.Names) || s.Names[idx] != v.value {
				idx = -1
				for i, n := range s.Names {
					if n == v.value {
						idx = i
						break
					}
				}
				if idx < 0 {
					return nil, fmt.Errorf("no value named %q", v.value)
				}
			}
			return append(out, s.Values[idx]), nil
		}
		i, err := strconv.Atoi(v.value)
		if err != nil || i < 0 || i >= len(s.Values) {
			return nil, fmt.Errorf("no value %q (the stream holds %d numbers: give an index)", v.value, len(s.Values))
		}
		return append(out, s.Values[i]), nil
	}
	return &series{sf: sf, r: sf.Reader(timesOnly), pick: pick}, nil
}

// series adapts a stream reader to the join.
type series struct {
	sf   *StreamFile
	r    *Reader
	pick func(*Sample, []float64) ([]float64, error)
	out  []float64
}

func (s *series) Next() (float64, []float64, error) {
	smp, err := s.r.Next()
	if err != nil {
		return 0, nil, err
	}
	if s.r.timesOnly {
		return smp.T, nil, nil
	}
	if s.out, err = s.pick(smp, s.out[:0]); err != nil {
		return 0, nil, &Error{File: s.sf.Path, Column: s.sf.Name, Row: s.r.row - 1, Msg: err.Error()}
	}
	return smp.T, s.out, nil
}

func (s *series) Close() error { return s.sf.Close() }
