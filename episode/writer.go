package episode

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/openbddl/bddl/predicates"
)

// Writer writes a recording: the header on creation, then one line per
// WriteStep (a step as given: the fields that changed) or WriteSnapshot
// (the complete state, of which only the changes are written). Numbers
// are written in their shortest exact form, so reading a written file
// gives back exactly the values written. Objects are written in name
// order and fields in the order of the format's documentation, so equal
// input gives equal files.
type Writer struct {
	bw     *bufio.Writer
	gz     *gzip.Writer
	file   *os.File
	buf    []byte
	err    error
	last   int64
	wrote  bool
	steps  int
	header Header

	// The state WriteSnapshot diffs against.
	prev      map[string]*Object
	prevFacts map[Atom]predicates.Truth
}

// NewWriter writes the header to w and returns a Writer for the steps.
// Close flushes it (it does not close w).
func NewWriter(w io.Writer, h *Header) (*Writer, error) {
	wr := &Writer{bw: bufio.NewWriterSize(w, bufferSize), header: *h}
	if err := wr.writeHeader(h); err != nil {
		return nil, err
	}
	return wr, nil
}

// NewGzipWriter is NewWriter with gzip compression.
func NewGzipWriter(w io.Writer, h *Header) (*Writer, error) {
	gz := gzip.NewWriter(w)
	wr := &Writer{gz: gz, bw: bufio.NewWriterSize(gz, bufferSize), header: *h}
	if err := wr.writeHeader(h); err != nil {
		return nil, err
	}
	return wr, nil
}

// Create creates a recording file, gzip-compressed when the name ends in
// .gz. Close closes the file.
func Create(path string, h *Header) (*Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	var w *Writer
	if strings.HasSuffix(path, ".gz") {
		w, err = NewGzipWriter(f, h)
	} else {
		w, err = NewWriter(f, h)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	w.file = f
	return w, nil
}

// Close flushes what is buffered, ends the gzip stream, and closes the
// file Create opened. A header that declared a number of steps must have
// had exactly that many written.
func (w *Writer) Close() error {
	err := w.err
	if err == nil && w.header.Steps > 0 && w.steps != w.header.Steps {
		err = fmt.Errorf("episode: the header declares %d steps, %d were written", w.header.Steps, w.steps)
	}
	if ferr := w.bw.Flush(); err == nil {
		err = ferr
	}
	if w.gz != nil {
		if gerr := w.gz.Close(); err == nil {
			err = gerr
		}
	}
	if w.file != nil {
		if cerr := w.file.Close(); err == nil {
			err = cerr
		}
	}
	w.err = errors.New("episode: write after Close")
	return err
}

func (w *Writer) writeHeader(h *Header) error {
	if h.Activity == "" {
		return errors.New("episode: the header needs an activity")
	}
	if h.DT < 0 || math.IsNaN(h.DT) || math.IsInf(h.DT, 0) {
		return fmt.Errorf("episode: dt %v is not a positive number of seconds", h.DT)
	}
	b := w.buf[:0]
	b = append(b, `{"bddl_episode":1,"activity":`...)
	b = appendString(b, h.Activity)
	if h.DT > 0 {
		b = append(b, `,"dt":`...)
		b = appendNum(b, h.DT)
	}
	if h.ClosedWorld {
		b = append(b, `,"closed_world":true`...)
	}
	if h.Steps > 0 {
		b = append(b, `,"steps":`...)
		b = strconv.AppendInt(b, int64(h.Steps), 10)
	}
	var err error
	if len(h.Objects) > 0 {
		b = append(b, `,"objects":`...)
		if b, err = appendObjects(b, h.Objects); err != nil {
			return err
		}
	}
	if len(h.Meta) > 0 {
		b = append(b, `,"meta":`...)
		b = append(b, h.Meta...)
	}
	b = append(b, "}\n"...)
	w.buf = b
	_, err = w.bw.Write(b)
	w.err = err
	return err
}

// WriteStep writes a step as given. Step numbers must increase.
func (w *Writer) WriteStep(s *Step) error {
	if w.err != nil {
		return w.err
	}
	if w.wrote && s.Step <= w.last {
		return fmt.Errorf("episode: step %d does not increase (the previous step is %d)", s.Step, w.last)
	}
	b := w.buf[:0]
	b = append(b, `{"step":`...)
	b = strconv.AppendInt(b, s.Step, 10)
	if s.HasT {
		if !finite(s.T) {
			return fmt.Errorf("episode: step %d: t is not finite", s.Step)
		}
		b = append(b, `,"t":`...)
		b = appendNum(b, s.T)
	}
	var err error
	if len(s.Objects) > 0 {
		b = append(b, `,"objects":`...)
		if b, err = appendObjects(b, s.Objects); err != nil {
			return fmt.Errorf("episode: step %d: %w", s.Step, err)
		}
	}
	for _, list := range []struct {
		key   string
		atoms []Atom
	}{{"facts", s.Facts}, {"false", s.False}, {"unset", s.Unset}} {
		if len(list.atoms) == 0 {
			continue
		}
		b = append(b, `,"`...)
		b = append(b, list.key...)
		b = append(b, `":[`...)
		for i, a := range list.atoms {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			b = appendString(b, a.Pred)
			b = append(b, ',')
			b = appendString(b, a.A)
			if a.B != "" {
				b = append(b, ',')
				b = appendString(b, a.B)
			}
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	b = append(b, "}\n"...)
	w.buf = b
	if _, err := w.bw.Write(b); err != nil {
		w.err = err
		return err
	}
	w.last, w.wrote = s.Step, true
	w.steps++
	return nil
}

func appendObjects(b []byte, objs map[string]*Object) ([]byte, error) {
	names := make([]string, 0, len(objs))
	for n := range objs {
		names = append(names, n)
	}
	slices.Sort(names)
	b = append(b, '{')
	for i, n := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, n)
		b = append(b, ':')
		var err error
		if b, err = appendObject(b, objs[n]); err != nil {
			return b, fmt.Errorf("objects.%s.%w", n, err)
		}
	}
	return append(b, '}'), nil
}

// fieldError is an error in a field; its message starts with the field.
type fieldError struct{ field, msg string }

func (e *fieldError) Error() string { return e.field + ": " + e.msg }

func appendObject(b []byte, o *Object) ([]byte, error) {
	b = append(b, '{')
	first := true
	for _, fn := range fieldNames {
		f := fn.f
		null, set := o.Null&f != 0, o.Set&f != 0
		if !null && !set {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, fn.name...)
		b = append(b, `":`...)
		if !set {
			b = append(b, "null"...)
			continue
		}
		var err error
		b, err = appendField(b, o, f)
		if err != nil {
			return b, &fieldError{fn.name, err.Error()}
		}
	}
	return append(b, '}'), nil
}

func appendField(b []byte, o *Object, f predicates.Field) ([]byte, error) {
	switch f {
	case predicates.FieldExists:
		return strconv.AppendBool(b, o.Exists), nil
	case predicates.FieldToggledOn:
		return strconv.AppendBool(b, o.ToggledOn), nil
	case predicates.FieldSliced:
		return strconv.AppendBool(b, o.Sliced), nil
	case predicates.FieldBroken:
		return strconv.AppendBool(b, o.Broken), nil
	case predicates.FieldPosition:
		return appendNums(b, o.Pos[:])
	case predicates.FieldOrientation:
		return appendNums(b, o.Quat[:])
	case predicates.FieldAABB:
		for k := 0; k < 3; k++ {
			if o.AABB.Min[k] > o.AABB.Max[k] {
				return b, fmt.Errorf("min %s %v > max %s %v", axisNames[k], o.AABB.Min[k], axisNames[k], o.AABB.Max[k])
			}
		}
		return appendNums(b, append(o.AABB.Min[:], o.AABB.Max[:]...))
	case predicates.FieldOBB:
		b = append(b, '[')
		for k, c := range o.OBB {
			if k > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendNums(b, c[:]); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	case predicates.FieldTemperature:
		return appendNums1(b, o.Temperature)
	case predicates.FieldMaxTemperature:
		return appendNums1(b, o.MaxTemperature)
	case predicates.FieldOpenFraction:
		if o.OpenFraction < 0 || o.OpenFraction > 1 {
			return b, fmt.Errorf("%v is outside [0, 1]", o.OpenFraction)
		}
		return appendNums1(b, o.OpenFraction)
	case predicates.FieldJoints:
		b = append(b, '{')
		for k, j := range o.Joints {
			if k > 0 {
				b = append(b, ',')
			}
			if !finite(j.Q) || !finite(j.Lo) || !finite(j.Hi) || j.Lo > j.Hi || j.Dir < -1 || j.Dir > 1 {
				return b, fmt.Errorf("joint %s is invalid: %+v", j.Name, j)
			}
			b = appendString(b, j.Name)
			b = append(b, `:{"q":`...)
			b = appendNum(b, j.Q)
			b = append(b, `,"lo":`...)
			b = appendNum(b, j.Lo)
			b = append(b, `,"hi":`...)
			b = appendNum(b, j.Hi)
			if j.Dir != 0 {
				b = append(b, `,"dir":`...)
				b = strconv.AppendInt(b, int64(j.Dir), 10)
			}
			b = append(b, '}')
		}
		return append(b, '}'), nil
	case predicates.FieldContacts:
		b = append(b, '[')
		for k, c := range o.Contacts {
			if k > 0 {
				b = append(b, ',')
			}
			b = appendString(b, c)
		}
		return append(b, ']'), nil
	case predicates.FieldAttachedTo:
		return appendString(b, o.AttachedTo), nil
	case predicates.FieldGraspedBy:
		return appendString(b, o.GraspedBy), nil
	case predicates.FieldRoom:
		return appendString(b, o.Room), nil
	case predicates.FieldParticles:
		b = append(b, '{')
		for k, p := range o.Particles {
			if k > 0 {
				b = append(b, ',')
			}
			b = appendString(b, p.Substance)
			b = append(b, ':')
			if p.Null {
				b = append(b, "null"...)
				continue
			}
			var err error
			b, err = appendOptional(b, []string{"inside", "fill_fraction", "covering", "absorbed", "absorb_limit"},
				[]float64{p.Inside, p.FillFraction, p.Covering, p.Absorbed, p.AbsorbLimit}, true)
			if err != nil {
				return b, fmt.Errorf("%s: %w", p.Substance, err)
			}
		}
		return append(b, '}'), nil
	case predicates.FieldBoxError:
		if !(o.BoxError[0] >= 0 && o.BoxError[1] >= 0) {
			return b, fmt.Errorf("negative box error %v", o.BoxError)
		}
		return appendNums(b, o.BoxError[:])
	case predicates.FieldCloth:
		return appendOptional(b, []string{"area_ratio", "diagonal_ratio", "smoothness"},
			[]float64{o.Cloth.AreaRatio, o.Cloth.DiagonalRatio, o.Cloth.Smoothness}, false)
	}
	return b, fmt.Errorf("unknown field %d", f)
}

// appendOptional writes an object of the named numbers that are not NaN.
func appendOptional(b []byte, names []string, vals []float64, nonNegative bool) ([]byte, error) {
	b = append(b, '{')
	first := true
	for i, v := range vals {
		if math.IsNaN(v) {
			continue
		}
		if math.IsInf(v, 0) || nonNegative && v < 0 {
			return b, fmt.Errorf("%s %v is invalid", names[i], v)
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendString(b, names[i])
		b = append(b, ':')
		b = appendNum(b, v)
	}
	return append(b, '}'), nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func appendNum(b []byte, v float64) []byte { return strconv.AppendFloat(b, v, 'g', -1, 64) }

func appendNums1(b []byte, v float64) ([]byte, error) {
	if !finite(v) {
		return b, fmt.Errorf("%v is not finite", v)
	}
	return appendNum(b, v), nil
}

func appendNums(b []byte, vs []float64) ([]byte, error) {
	b = append(b, '[')
	for i, v := range vs {
		if !finite(v) {
			return b, fmt.Errorf("%v is not finite", v)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = appendNum(b, v)
	}
	return append(b, ']'), nil
}

// appendString writes s as a JSON string.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			b = append(b, c)
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\t':
			b = append(b, '\\', 't')
		case '\r':
			b = append(b, '\\', 'r')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		}
		i++
	}
	return append(b, '"')
}
