package recording

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/openbddl/bddl/internal/fsutil"
)

// errSlowPath makes a times-only read fall back to the full parser, which
// says what is wrong with a line.
var errSlowPath = errors.New("not a plain track line")

// trackTimes reads only the "t" of each line of a track: the join's first
// pass, which needs the times alone. A line it cannot read simply (bad
// JSON, no t, a t that is not a number) makes it give up with
// errSlowPath, and the full reader reports the problem.
type trackTimes struct {
	name string
	src  *bufio.Reader
	c    io.Closer
	line int
	last float64
}

func openTrackTimes(path string) (*trackTimes, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	return &trackTimes{name: path, src: bufio.NewReaderSize(f, 64<<10), c: f, last: math.Inf(-1)}, nil
}

func (tt *trackTimes) Close() error { return tt.c.Close() }

// Next returns the next line's time; io.EOF after the last.
func (tt *trackTimes) Next() (float64, []float64, error) {
	for {
		line, err := tt.src.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			return 0, nil, errSlowPath // a long line: the full reader bounds it
		}
		if len(line) == 0 && err != nil {
			if err == io.EOF {
				return 0, nil, io.EOF
			}
			return 0, nil, err
		}
		tt.line++
		t, blank, ok := lineTime(line)
		if blank {
			if err == io.EOF {
				return 0, nil, io.EOF
			}
			continue
		}
		if !ok {
			return 0, nil, errSlowPath
		}
		if t < tt.last {
			return 0, nil, fmt.Errorf("%s:%d: t: %s is before the previous line's %s: a track's times must not decrease", tt.name, tt.line, fmtT(t), fmtT(tt.last))
		}
		tt.last = t
		return t, nil, nil
	}
}

// lineTime finds the top-level "t" of a JSON object line; blank for an
// empty line, !ok when the line is not a plain object with a numeric t.
func lineTime(b []byte) (t float64, blank, ok bool) {
	i := skipWS(b, 0)
	if i == len(b) {
		return 0, true, true
	}
	if b[i] != '{' {
		return 0, false, false
	}
	i++
	found := false
	for {
		i = skipWS(b, i)
		if i < len(b) && b[i] == '}' && !found {
			return 0, false, false
		}
		if i >= len(b) || b[i] != '"' {
			return 0, false, false
		}
		ks := i + 1
		ke, ok := endOfString(b, i)
		if !ok {
			return 0, false, false
		}
		key := b[ks : ke-1]
		i = skipWS(b, ke)
		if i >= len(b) || b[i] != ':' {
			return 0, false, false
		}
		i = skipWS(b, i+1)
		ve, ok := endOfValue(b, i)
		if !ok {
			return 0, false, false
		}
		if string(key) == "t" {
			v, err := strconv.ParseFloat(string(b[i:ve]), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, false, false
			}
			t, found = v, true // a later "t" wins, as in the full parser
		}
		i = skipWS(b, ve)
		if i < len(b) && b[i] == ',' {
			i++
			continue
		}
		if i < len(b) && b[i] == '}' && found && skipWS(b, i+1) == len(b) {
			return t, false, true
		}
		return 0, false, false
	}
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// endOfString returns the index after the string starting at b[i] ('"').
func endOfString(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// endOfValue returns the index after the JSON value starting at b[i]
// (balanced brackets, strings skipped; the full parser checks the rest).
func endOfValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return endOfString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e, ok := endOfString(b, j)
				if !ok {
					return 0, false
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\r' && b[j] != '\n' {
		j++
	}
	return j, j > i
}
