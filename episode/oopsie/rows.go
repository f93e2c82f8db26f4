package oopsie

import (
	"fmt"
	"io"

	"github.com/openbddl/bddl/episode/recording"
)

// blockBytes is the values kept in memory per dataset read by blocks;
// wholeBytes the largest dataset read at once.
const (
	blockBytes = 64 << 10
	wholeBytes = 1 << 20
)

// rowReader reads a [N, D] dataset a block of rows at a time.
type rowReader struct {
	file     string
	d        Dataset
	block    []float64
	start, n int
	per      int
}

func newRowReader(file string, d Dataset) *rowReader {
	per := max(1, blockBytes/(8*max(1, d.Width)))
	if d.Rows*d.Width*8 <= wholeBytes {
		per = d.Rows
	}
	return &rowReader{file: file, d: d, per: per}
}

// row returns row k (valid until the next call).
func (r *rowReader) row(k int) (v []float64, err error) {
	if k < 0 || k >= r.d.Rows {
		return nil, io.EOF
	}
	if k < r.start || k >= r.start+r.n {
		defer func() {
			if p := recover(); p != nil {
				v, err = nil, &Error{File: r.file, Path: r.d.Path, Row: k, Msg: fmt.Sprintf("corrupt data (%v)", p)}
			}
		}()
		start := k / r.per * r.per
		n := min(r.per, r.d.Rows-start)
		var vals []float64
		if n == r.d.Rows {
			vals, err = r.d.ds.Read()
		} else {
			var x any
			x, err = r.d.ds.ReadSlice([]uint64{uint64(start), 0}, []uint64{uint64(n), uint64(r.d.Width)})
			vals, _ = x.([]float64)
		}
		if err != nil {
			return nil, &Error{File: r.file, Path: r.d.Path, Row: start, Msg: "cannot read: " + err.Error()}
		}
		if len(vals) != n*r.d.Width {
			return nil, &Error{File: r.file, Path: r.d.Path, Row: start, Msg: fmt.Sprintf("read %d values, expected %d", len(vals), n*r.d.Width)}
		}
		r.block, r.start, r.n = vals, start, n
	}
	off := (k - r.start) * r.d.Width
	return r.block[off : off+r.d.Width], nil
}

// source is a dataset as a stream of the join: row i at t0 + i/hz, the
// values picked from the row.
type source struct {
	e      *Episode
	d      Dataset
	t0, hz float64
	pick   func(row []float64, out []float64) []float64
}

func (s *source) Name() string { return s.d.Path }

func (s *source) Open() (recording.Series, error) {
	return &series{s: s, r: newRowReader(s.e.Path, s.d), i: -1}, nil
}
func (s *source) OpenTimes() (recording.Series, error) {
	return &series{s: s, i: -1, timesOnly: true}, nil
}

type series struct {
	s         *source
	r         *rowReader
	i         int
	timesOnly bool
	out       []float64
}

func (c *series) Next() (float64, []float64, error) {
	c.i++
	if c.i >= c.s.d.Rows {
		return 0, nil, io.EOF
	}
	t := c.s.t0 + float64(c.i)/c.s.hz
	if c.timesOnly {
		return t, nil, nil
	}
	row, err := c.r.row(c.i)
	if err != nil {
		return 0, nil, err
	}
	c.out = c.s.pick(row, c.out[:0])
	return t, c.out, nil
}

func (c *series) Close() error { return nil }
