package recording

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/fsutil"
)

// maxTrackLine bounds one line of a track.
const maxTrackLine = 16 << 20

// TrackReader reads an object track a line at a time. Its lines are given
// to the episode package's own step parser (a header is made up for it),
// so a track takes exactly the episode format's fields and checks.
type TrackReader struct {
	name  string
	src   *bufio.Reader
	pipe  *trackPipe
	rd    *episode.Reader
	close io.Closer
	last  float64
	n     int
}

// OpenTrack opens a track file (regular files only).
func OpenTrack(path string) (*TrackReader, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	t, err := NewTrackReader(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	t.close = f
	return t, nil
}

// NewTrackReader reads a track from r; name is used in messages.
func NewTrackReader(r io.Reader, name string) (*TrackReader, error) {
	p := &trackPipe{src: bufio.NewReaderSize(r, 64<<10)}
	p.buf.WriteString(`{"bddl_episode":1,"activity":"track"}` + "\n")
	rd, err := episode.NewReader(p, name)
	if err != nil {
		return nil, err
	}
	return &TrackReader{name: name, pipe: p, rd: rd, last: math.Inf(-1)}, nil
}

// Close closes the file OpenTrack opened.
func (t *TrackReader) Close() error {
	if t.close != nil {
		return t.close.Close()
	}
	return nil
}

// Samples is the number of samples read so far.
func (t *TrackReader) Samples() int { return t.n }

// Next reads the next sample: its time and what it records. It returns
// io.EOF after the last one.
func (t *TrackReader) Next() (float64, *episode.Step, error) {
	st, err := t.rd.ReadStep()
	if err != nil {
		if err == io.EOF {
			if t.pipe.err != nil {
				return 0, nil, fmt.Errorf("%s: %v", t.name, t.pipe.err)
			}
			return 0, nil, io.EOF
		}
		var ee *episode.Error
		if errors.As(err, &ee) {
			ee.Line-- // the made-up header
			ee.HasStep = false
			return 0, nil, ee
		}
		return 0, nil, err
	}
	line := t.rd.Line() - 1
	if !st.HasT {
		return 0, nil, &episode.Error{File: t.name, Line: line, Field: "t", Msg: "missing: every track line needs its time (unix seconds)"}
	}
	if st.T < t.last {
		return 0, nil, &episode.Error{File: t.name, Line: line, Field: "t",
			Msg: fmt.Sprintf("%s is before the previous line's %s: a track's times must not decrease", fmtT(st.T), fmtT(t.last))}
	}
	t.last = st.T
	t.n++
	return st.T, st, nil
}

func fmtT(t float64) string { return strconv.FormatFloat(t, 'f', -1, 64) }

// trackPipe feeds the episode reader a made-up header, then the track's
// lines, each given a step number (its line number) as the episode
// format needs one: the number is put last, so it overrides a "step" the
// line gives itself.
type trackPipe struct {
	src  *bufio.Reader
	buf  bytes.Buffer
	line []byte
	n    int
	err  error
	done bool
}

func (p *trackPipe) Read(b []byte) (int, error) {
	for p.buf.Len() == 0 {
		if p.done {
			return 0, io.EOF
		}
		p.fill()
	}
	return p.buf.Read(b)
}

func (p *trackPipe) fill() {
	p.line = p.line[:0]
	for {
		chunk, err := p.src.ReadSlice('\n')
		p.line = append(p.line, chunk...)
		if len(p.line) > maxTrackLine {
			p.err, p.done = fmt.Errorf("line %d is longer than %s", p.n+1, fsutil.Size(maxTrackLine)), true
			return
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && err != io.EOF {
			p.err = err
		}
		if err != nil {
			p.done = true
		}
		break
	}
	if len(p.line) == 0 {
		return
	}
	p.n++
	body := bytes.TrimRight(p.line, " \t\r\n")
	if len(bytes.TrimSpace(body)) == 0 {
		p.buf.WriteByte('\n') // blank lines keep their number
		return
	}
	if len(body) > 0 && body[len(body)-1] == '}' {
		inner := bytes.TrimSpace(body[:len(body)-1])
		p.buf.Write(inner)
		if len(inner) > 0 && inner[len(inner)-1] != '{' {
			p.buf.WriteByte(',')
		}
		p.buf.WriteString(`"step":`)
		p.buf.WriteString(strconv.Itoa(p.n))
		p.buf.WriteString("}\n")
		return
	}
	p.buf.Write(body) // not an object: the parser says why
	p.buf.WriteByte('\n')
}
