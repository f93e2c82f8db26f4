package episode

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/openbddl/bddl/predicates"
)

// Reader streams a recording: NewReader reads the header; then either
// Bind a predicates.State and call Next, which decodes each step straight
// into the state (the checker's path: no allocation per step), or call
// ReadStep for each step as a value. gzip input is recognised by its
// magic bytes, whatever the file is called.
//
// A bad line is an *Error naming the file, line, step and field. With
// SetLenient a bad step is skipped instead, and counted: the state is
// never half-updated, because a line is parsed and checked in full
// before any of it is applied.
type Reader struct {
	name   string
	br     *bufio.Reader
	closer io.Closer
	line   int    // number of the last line read
	long   []byte // a line longer than br's buffer
	// maxLine is the longest line accepted (MaxLineBytes); fatal is the
	// error of a line over it, returned by every later read.
	maxLine int
	fatal   error
	bytes   int64 // bytes of decompressed input read

	hl         headerLine
	headerText []byte
	model      *decoder // names interned as met: header objects, ReadStep
	unknown    map[string]bool
	warnings   []string
	reflexive  int // recorded true facts relating an object to itself

	// Bound mode.
	state     *predicates.State
	dec       *decoder
	mentioned []bool

	lenient     bool
	skipped     int
	skippedSeen int // skipped when Feed last applied a step
	skipErrors  []*Error
	stepLines   int // step lines read, good or skipped
	steps       int // good steps
	last        int64
	haveLast    bool
	eof         bool
}

// StepInfo describes the step Next just applied.
type StepInfo struct {
	Step int64
	T    float64 // seconds, when HasT
	HasT bool
	Line int
	// Skipped is the number of bad lines skipped (lenient mode) just
	// before this step.
	Skipped int
}

const bufferSize = 64 << 10

// MaxLineBytes is the longest line a recording may have, line ending
// excluded: 64 MiB. A step line of a real recording is a few kilobytes
// and a header with thousands of objects a few megabytes; a longer line is
// refused with its file and line number, so that a hostile file (a gzip
// of one endless line) costs at most about twice this in memory.
const MaxLineBytes = 64 << 20

// maxSkipErrors is how many skipped-step errors a lenient Reader keeps.
const maxSkipErrors = 20

// NewReader reads the header of a recording from r; name is used in
// errors (a file path).
// utf8BOM is the UTF-8 encoding of U+FEFF, the byte-order mark.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

func NewReader(r io.Reader, name string) (*Reader, error) {
	ensureTables()
	rd := &Reader{name: name, unknown: map[string]bool{}, maxLine: MaxLineBytes}
	br := bufio.NewReaderSize(r, bufferSize)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, &Error{File: name, Msg: "corrupt gzip header: " + err.Error()}
		}
		br = bufio.NewReaderSize(gz, bufferSize)
	}
	rd.br = br
	rd.model = &decoder{res: newResolver(nil, nil), unknown: rd.unknown, warn: rd.warn}
	line, err := rd.readLine()
	switch {
	case err == io.EOF:
		return nil, &Error{File: name, Line: 1, Msg: "empty file: no header line"}
	case err != nil:
		return nil, err
	}
	// A UTF-8 byte-order mark, which some editors and Windows tools
	// write, is not part of the header.
	rd.headerText = append([]byte(nil), bytes.TrimPrefix(line, utf8BOM)...)
	d := rd.model
	if !d.parseHeader(rd.headerText, &rd.hl) {
		return nil, rd.errorOf(d, nil)
	}
	if span := rd.hl.meta; span[1] > span[0] {
		rd.hl.h.Meta = rd.headerText[span[0]:span[1]]
	}
	if span := rd.hl.objects; span[1] > span[0] {
		d.sc.reset(rd.headerText[span[0]:span[1]])
		d.b.reset()
		d.segs = d.segs[:0]
		if !d.parseObjects() {
			d.up("objects")
			return nil, rd.errorOf(d, nil)
		}
		rd.hl.h.Objects = objectsOf(&d.b, d.res)
	}
	return rd, nil
}

// Open opens a recording file; Close closes it.
func Open(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := NewReader(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.closer = f
	return r, nil
}

// Close closes the file Open opened.
func (r *Reader) Close() error {
	if r.closer != nil {
		return r.closer.Close()
	}
	return nil
}

// Header is the recording's header.
func (r *Reader) Header() *Header { return &r.hl.h }

// SetLenient makes Next and ReadStep skip bad steps, counting them,
// instead of failing.
func (r *Reader) SetLenient(lenient bool) { r.lenient = lenient }

// Skipped is the number of bad step lines skipped so far.
func (r *Reader) Skipped() int { return r.skipped }

// SkipErrors are the errors of the first skipped lines.
func (r *Reader) SkipErrors() []*Error { return r.skipErrors }

// Warnings are notes about the input that are not errors, such as
// unknown fields (ignored, so newer recordings stay readable).
func (r *Reader) Warnings() []string { return r.warnings }

// Steps is the number of steps read so far.
func (r *Reader) Steps() int { return r.steps }

// Bytes is the number of (decompressed) bytes read so far.
func (r *Reader) Bytes() int64 { return r.bytes }

// Line is the number of the last line read.
func (r *Reader) Line() int { return r.line }

// maxReflexiveWarnings bounds the reflexive-fact warnings of one episode:
// a recorder that writes one writes it at every step.
const maxReflexiveWarnings = 10

// noteReflexive warns about a recorded true fact that relates an object
// to itself by a kinematic relation: the engine decides it False, as the
// simulator can never make it true, and says so with the line and step.
func (r *Reader) noteReflexive(b *batch) {
	for i := range b.ops {
		o := &b.ops[i]
		if o.kind != opFact || o.obj != o.ref || o.truth != predicates.True || !o.pred.Irreflexive() {
			continue
		}
		r.reflexive++
		if r.reflexive > maxReflexiveWarnings {
			continue
		}
		name := r.state.Program().Name(o.obj)
		msg := fmt.Sprintf("line %d, step %d: recorded fact (%s %s %s) is true, but %s never relates an object to itself: decided False",
			r.line, b.step, o.pred, name, name, o.pred)
		if r.reflexive == maxReflexiveWarnings {
			msg += " (further such facts are not reported)"
		}
		r.warnings = append(r.warnings, msg)
	}
}

func (r *Reader) warn(field string) {
	r.warnings = append(r.warnings, fmt.Sprintf("line %d: unknown field %q ignored", r.line, field))
}

// Bind resets s and loads the header into it: every instance not named
// in the recording does not exist, the closed-world flag, and the
// header's objects. s must belong to the program of the header's
// activity. After Bind, read steps with Next.
func (r *Reader) Bind(s *predicates.State) error {
	if r.state != nil {
		return errors.New("episode: Reader.Bind called twice")
	}
	if r.steps > 0 || r.stepLines > 0 {
		return errors.New("episode: Reader.Bind after reading steps")
	}
	prog := s.Program()
	r.state = s
	s.Reset()
	s.SetAllExist(false)
	s.SetClosedWorld(r.hl.h.ClosedWorld)
	r.mentioned = make([]bool, prog.NumObjects())
	r.dec = &decoder{res: newResolver(prog, s), mentioned: r.mentioned, unknown: r.unknown, warn: r.warn}
	if span := r.hl.objects; span[1] > span[0] {
		d := r.dec
		d.sc.reset(r.headerText[span[0]:span[1]])
		d.b.reset()
		d.segs = d.segs[:0]
		saved := r.line
		r.line = 1
		ok := d.parseObjects()
		r.line = saved
		if !ok {
			d.up("objects")
			return &Error{File: r.name, Line: 1, Field: d.errPath(), Msg: d.sc.msg}
		}
		if err := apply(s, &d.b, r.mentioned); err != nil {
			return &Error{File: r.name, Line: 1, Field: "objects", Msg: err.Error()}
		}
	}
	return nil
}

// Next decodes the next step into the bound state. It returns io.EOF
// after the last step, and an *Error for a bad line (in lenient mode,
// only for what cannot be skipped: a truncated or unreadable file).
func (r *Reader) Next() (StepInfo, error) {
	if r.dec == nil {
		return StepInfo{}, errors.New("episode: Reader.Next before Bind")
	}
	skippedBefore := r.skipped
	b, err := r.nextBatch(r.dec)
	if err != nil {
		return StepInfo{}, err
	}
	if err := apply(r.state, b, r.mentioned); err != nil {
		return StepInfo{}, &Error{File: r.name, Line: r.line, Step: b.step, HasStep: true, Msg: err.Error()}
	}
	r.noteReflexive(b)
	return StepInfo{Step: b.step, T: b.t, HasT: b.hasT, Line: r.line, Skipped: r.skipped - skippedBefore}, nil
}

// ReadStep reads the next step as a value (unbound mode: names are not
// checked against an activity). It returns io.EOF after the last step.
func (r *Reader) ReadStep() (*Step, error) {
	if r.dec != nil {
		return nil, errors.New("episode: Reader.ReadStep after Bind")
	}
	b, err := r.nextBatch(r.model)
	if err != nil {
		return nil, err
	}
	st := &Step{Step: b.step, T: b.t, HasT: b.hasT, Objects: objectsOf(b, r.model.res)}
	atomsOf(b, r.model.res, st)
	return st, nil
}

// ReadAll reads a whole recording as values.
func ReadAll(rd io.Reader, name string) (*Header, []*Step, error) {
	r, err := NewReader(rd, name)
	if err != nil {
		return nil, nil, err
	}
	var steps []*Step
	for {
		st, err := r.ReadStep()
		if err == io.EOF {
			return r.Header(), steps, nil
		}
		if err != nil {
			return r.Header(), steps, err
		}
		steps = append(steps, st)
	}
}

// nextBatch reads lines until one parses into a valid step (skipping bad
// ones in lenient mode) and returns its batch.
func (r *Reader) nextBatch(d *decoder) (*batch, error) {
	for {
		if r.eof {
			return nil, io.EOF
		}
		line, err := r.readLine()
		if err == io.EOF {
			r.eof = true
			if n := r.hl.h.Steps; n > 0 && r.stepLines < n {
				return nil, &Error{File: r.name, Line: r.line + 1,
					Msg: fmt.Sprintf("truncated: the header declares %d steps, the file ends after %d", n, r.stepLines)}
			}
			return nil, io.EOF
		}
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		b, bad, err := r.parseLine(d, line, false, nil)
		if err != nil {
			return nil, err
		}
		if bad != nil {
			if err := r.reject(bad); err != nil {
				return nil, err
			}
			continue
		}
		return b, nil
	}
}

// parseLine parses and checks one step line (not blank) into d's
// batch. bad is an error of the line (skipped in lenient mode), err one
// that no mode skips. With prefix, the step object only begins the line
// and anything may follow it (FeedPrefix): d.sc.i is where it ended.
// With m, the step is m's dict, or when the dict is not read as it is,
// its line.
func (r *Reader) parseLine(d *decoder, line []byte, prefix bool, m *MarshalStep) (b *batch, bad *Error, err error) {
	r.stepLines++
	if n := r.hl.h.Steps; n > 0 && r.stepLines > n {
		return nil, nil, &Error{File: r.name, Line: r.line,
			Msg: fmt.Sprintf("more steps than the %d the header declares", n)}
	}
	if m == nil || !d.parseStepMarshal(m) {
		if m != nil {
			line = m.Line()
		}
		if !d.parseStep(line, prefix) {
			return nil, r.errorOf(d, line), nil
		}
	}
	if prefix && d.sc.i > r.maxLine {
		return nil, nil, &Error{File: r.name, Line: r.line, Msg: fmt.Sprintf("line longer than the limit of %d bytes", r.maxLine)}
	}
	b = &d.b
	if r.haveLast && b.step <= r.last {
		return nil, &Error{File: r.name, Line: r.line, Step: b.step, HasStep: true, Field: "step",
			Msg: fmt.Sprintf("%d does not increase (the previous step is %d)", b.step, r.last)}, nil
	}
	r.last, r.haveLast = b.step, true
	r.steps++
	return b, nil, nil
}

// Feed decodes one step line given by the caller (instead of read from
// the input) into the bound state, as Next does: a bad line is an *Error
// in strict mode, which stops the reader, and a *SkippedError in lenient
// mode, counted with the skipped steps. A blank line is an error, as
// there is no step in it.
func (r *Reader) Feed(line []byte) (StepInfo, error) {
	_, info, err := r.feed(line, false, nil)
	return info, err
}

// FeedPrefix is Feed for a step object that begins buf and is followed
// by anything (the rest of an array of steps, which the caller walks): it
// returns the number of bytes of buf the object took, leading whitespace
// included, so that the bytes are scanned once. The object is parsed
// exactly as Feed parses a line, and counts as one line; nothing after it
// is looked at. On an error the count is 0.
func (r *Reader) FeedPrefix(buf []byte) (int, StepInfo, error) {
	return r.feed(buf, true, nil)
}

// feed applies a step line, or with m a marshalled step (whose line
// is m.JSON()).
func (r *Reader) feed(line []byte, prefix bool, m *MarshalStep) (int, StepInfo, error) {
	if r.dec == nil {
		return 0, StepInfo{}, errors.New("episode: Reader.Feed before Bind")
	}
	if r.eof {
		return 0, StepInfo{}, errors.New("episode: the recording stopped at an earlier error")
	}
	if m != nil && m.length() > r.maxLine {
		line, m = m.Line(), nil // refused below as the line is
	}
	if !prefix && len(line) > r.maxLine {
		return 0, StepInfo{}, &Error{File: r.name, Line: r.line + 1, Msg: fmt.Sprintf("line longer than the limit of %d bytes", r.maxLine)}
	}
	r.line++
	var b *batch
	var bad *Error
	n := len(line)
	if m != nil {
		n = m.length()
	}
	if m != nil || !blank(line, prefix) {
		var err error
		if b, bad, err = r.parseLine(r.dec, line, prefix, m); err != nil {
			r.eof = true
			return 0, StepInfo{}, err
		}
		if prefix {
			n = r.dec.sc.i
		}
	} else {
		bad = &Error{File: r.name, Line: r.line, Msg: "blank line: no step"}
	}
	r.bytes += int64(n) + 1
	if bad != nil {
		if err := r.reject(bad); err != nil {
			return 0, StepInfo{}, err
		}
		return 0, StepInfo{}, &SkippedError{Err: bad}
	}
	if err := apply(r.state, b, r.mentioned); err != nil {
		return 0, StepInfo{}, &Error{File: r.name, Line: r.line, Step: b.step, HasStep: true, Msg: err.Error()}
	}
	r.noteReflexive(b)
	// A line skipped by Feed counts as Skipped before this step, as Next
	// reports the lines it skipped.
	skipped := r.skipped - r.skippedSeen
	r.skippedSeen = r.skipped
	return n, StepInfo{Step: b.step, T: b.t, HasT: b.hasT, Line: r.line, Skipped: skipped}, nil
}

// blank reports whether line holds nothing but whitespace; with prefix
// only its start is looked at (the rest is the caller's: an array of
// steps does not end in whitespace).
func blank(line []byte, prefix bool) bool {
	if prefix {
		for _, c := range line {
			if c >= 0x80 {
				break // Unicode space, as bytes.TrimSpace sees it
			}
			if c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\v' && c != '\f' {
				return false
			}
		}
	}
	return len(bytes.TrimSpace(line)) == 0
}

// SkippedError is a bad line Feed skipped in lenient mode.
type SkippedError struct{ Err *Error }

func (e *SkippedError) Error() string { return e.Err.Error() + " (skipped)" }

// Unwrap is the error of the line.
func (e *SkippedError) Unwrap() error { return e.Err }

// reject handles a bad step line: an error in strict mode, nil (skip)
// in lenient mode.
func (r *Reader) reject(e *Error) error {
	if !r.lenient {
		r.eof = true // the stream stops at its first error
		return e
	}
	r.skipped++
	if len(r.skipErrors) < maxSkipErrors {
		r.skipErrors = append(r.skipErrors, e)
	}
	return nil
}

// errorOf builds the error of a failed parse, finding the step number
// in the line if the parse did not get to it.
func (r *Reader) errorOf(d *decoder, line []byte) *Error {
	e := &Error{File: r.name, Line: r.line, Field: d.errPath(), Msg: d.sc.msg}
	if e.Msg == "" {
		e.Msg = "malformed line"
	}
	if line != nil {
		if d.b.hasStep {
			e.Step, e.HasStep = d.b.step, true
		} else {
			e.Step, e.HasStep = findStep(line)
		}
	}
	return e
}

// findStep looks for the step number of a line that failed to parse,
// for the error message.
func findStep(line []byte) (int64, bool) {
	var sc scanner
	sc.reset(line)
	empty, ok := sc.open('{', '}', "")
	if !ok || empty {
		return 0, false
	}
	for {
		k, ok := sc.key()
		if !ok {
			return 0, false
		}
		if string(k) == "step" {
			return sc.integer()
		}
		if !sc.skip() {
			return 0, false
		}
		if more, ok := sc.next('}'); !ok || !more {
			return 0, false
		}
	}
}

// readLine returns the next line without its line ending. The slice is
// valid until the next call.
func (r *Reader) readLine() ([]byte, error) {
	if r.fatal != nil {
		return nil, r.fatal
	}
	line, err := r.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		r.long = append(r.long[:0], line...)
		for err == bufio.ErrBufferFull {
			if len(r.long) > r.maxLine {
				return nil, r.tooLong()
			}
			line, err = r.br.ReadSlice('\n')
			r.appendLong(line)
		}
		line = r.long
	}
	if n := len(bytes.TrimRight(line, "\r\n")); n > r.maxLine {
		return nil, r.tooLong()
	}
	r.bytes += int64(len(line))
	if err != nil && err != io.EOF {
		return nil, &Error{File: r.name, Line: r.line + 1, Msg: readFailure(err)}
	}
	if len(line) == 0 && err == io.EOF {
		return nil, io.EOF
	}
	r.line++
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
		if n > 1 && line[n-2] == '\r' {
			line = line[:n-2]
		}
	}
	return line, nil
}

// appendLong appends to the long-line buffer, doubling it when full (not
// append's 1.25 for large slices) and jumping to the limit and one buffer
// at the last step, so that a line of n bytes allocates about 2n in all.
func (r *Reader) appendLong(b []byte) {
	if need := len(r.long) + len(b); need > cap(r.long) {
		c := max(2*cap(r.long), need)
		if c >= r.maxLine {
			c = max(r.maxLine+bufferSize+1, need)
		}
		grown := make([]byte, len(r.long), c)
		copy(grown, r.long)
		r.long = grown
	}
	r.long = append(r.long, b...)
}

// tooLong stops the reader at a line over maxLine.
func (r *Reader) tooLong() error {
	r.long = nil // release what was read of it
	limit := fmt.Sprintf("%d bytes", r.maxLine)
	if r.maxLine%(1<<20) == 0 {
		limit = fmt.Sprintf("%d MiB", r.maxLine>>20)
	}
	r.fatal = &Error{File: r.name, Line: r.line + 1,
		Msg: "line longer than the limit of " + limit + " (episode.MaxLineBytes); a recording's lines are a step or a header each"}
	return r.fatal
}

func readFailure(err error) string {
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "truncated: the compressed stream ends early"
	case errors.Is(err, gzip.ErrChecksum):
		return "corrupt: the compressed data fails its checksum"
	case errors.Is(err, gzip.ErrHeader):
		return "corrupt: bad data after the compressed stream"
	}
	return "read error: " + err.Error()
}
