package recording

import (
	"fmt"
	"io"
	"math"
)

// Series is a cursor over one robot stream's samples, in recorded order.
type Series interface {
	// Next returns the next sample's time (unix seconds) and values
	// (valid until the next call); io.EOF after the last.
	Next() (t float64, vals []float64, err error)
	Close() error
}

// Source is a robot stream that can be read from its start any number of
// times: once to find its span, once to join it.
type Source interface {
	// Name names the stream in messages ("observation.base_state").
	Name() string
	Open() (Series, error)
}

// Span is what a first pass over a stream finds.
type Span struct {
	Name        string  `json:"name"`
	Samples     int     `json:"samples"`
	First       float64 `json:"first"`
	Last        float64 `json:"last"`
	Rate        float64 `json:"rate"` // samples per second, 0 with fewer than 2
	Description string  `json:"-"`
}

// TimeError is a stream's timestamp problem: one going back, or a gap.
type TimeError struct {
	Stream string
	Sample int // index of the sample at fault
	Msg    string
}

func (e *TimeError) Error() string {
	return fmt.Sprintf("%s: sample %d: %s", e.Stream, e.Sample, e.Msg)
}

// TimesSource is a Source that can read its times alone, faster.
type TimesSource interface {
	OpenTimes() (Series, error)
}

// scan reads a source's times, checking they never decrease.
func scan(src Source) (Span, error) {
	open := src.Open
	if ts, ok := src.(TimesSource); ok {
		open = ts.OpenTimes
	}
	s, err := open()
	if err != nil {
		return Span{}, err
	}
	defer s.Close()
	sp := Span{Name: src.Name()}
	prev := math.Inf(-1)
	for {
		t, _, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return sp, err
		}
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return sp, &TimeError{Stream: sp.Name, Sample: sp.Samples, Msg: fmt.Sprintf("timestamp is %v", t)}
		}
		if t < prev {
			return sp, &TimeError{Stream: sp.Name, Sample: sp.Samples,
				Msg: fmt.Sprintf("timestamp %s is before the previous sample's %s: timestamps must not decrease", fmtT(t), fmtT(prev))}
		}
		if sp.Samples == 0 {
			sp.First = t
		}
		prev, sp.Last = t, t
		sp.Samples++
	}
	if sp.Samples == 0 {
		return sp, fmt.Errorf("%s: no samples", sp.Name)
	}
	if sp.Samples > 1 && sp.Last > sp.First {
		sp.Rate = float64(sp.Samples-1) / (sp.Last - sp.First)
	}
	return sp, nil
}

// cursor follows a stream during the join: cur is the latest sample at
// or before the step time, next the one after it.
type cursor struct {
	name      string
	s         Series
	cur, next []float64
	tCur      float64
	tNext     float64
	iCur      int
	hasNext   bool
	started   bool
	maxGap    float64
	t0        float64
}

func openCursor(src Source, maxGap, t0 float64) (*cursor, error) {
	s, err := src.Open()
	if err != nil {
		return nil, err
	}
	c := &cursor{name: src.Name(), s: s, maxGap: maxGap, t0: t0, iCur: -1}
	if err := c.read(); err != nil {
		s.Close()
		return nil, err
	}
	return c, nil
}

func (c *cursor) read() error {
	t, v, err := c.s.Next()
	if err == io.EOF {
		c.hasNext = false
		return nil
	}
	if err != nil {
		return err
	}
	c.tNext, c.hasNext = t, true
	c.next = append(c.next[:0], v...)
	return nil
}

// advance moves to the latest sample at or before ts, failing on a gap
// longer than maxGap after t0 (one the step at ts falls in, or one
// passed over).
func (c *cursor) advance(ts float64) error {
	for c.hasNext && c.tNext <= ts+timeEps {
		if c.started && c.tNext > c.t0 && c.tNext-c.tCur > c.maxGap {
			return c.gap()
		}
		c.cur, c.next = c.next, c.cur
		c.tCur, c.started = c.tNext, true
		c.iCur++
		if err := c.read(); err != nil {
			return err
		}
		if c.hasNext && c.tNext < c.tCur {
			return &TimeError{Stream: c.name, Sample: c.iCur + 1,
				Msg: fmt.Sprintf("timestamp %s is before the previous sample's %s: timestamps must not decrease", fmtT(c.tNext), fmtT(c.tCur))}
		}
	}
	if !c.started {
		return &TimeError{Stream: c.name, Sample: 0, Msg: fmt.Sprintf("no sample at or before %s", fmtT(ts))}
	}
	if c.hasNext && c.tNext-c.tCur > c.maxGap {
		return c.gap()
	}
	return nil
}

func (c *cursor) gap() error {
	return &TimeError{Stream: c.name, Sample: c.iCur + 1,
		Msg: fmt.Sprintf("a gap of %.3f s between %s and %s is longer than the bound of %g s (--max-gap)",
			c.tNext-c.tCur, fmtT(c.tCur), fmtT(c.tNext), c.maxGap)}
}

func (c *cursor) close() { c.s.Close() }
