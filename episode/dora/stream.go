package dora

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"

	"github.com/openbddl/bddl/episode/recording"
	"github.com/openbddl/bddl/internal/pqguard"
)

// TimeColumn is the column the samples' times come from.
const TimeColumn = "timestamp_utc"

// Kind is how a stream's data column is laid out.
type Kind int

const (
	// Named is list<struct<name, value>>: named joint values.
	Named Kind = iota
	// Numbers is a list of numbers (action.base).
	Numbers
	// BaseState is observation.base_state's struct, flattened.
	BaseState
)

func (k Kind) String() string {
	return [...]string{"named values", "numbers", "base state"}[k]
}

// baseFields are the base state's leaves, in flattened order, and their
// widths.
var baseFields = []struct {
	path  string
	width int
}{{"base.position", 3}, {"base.quat", 4}, {"base.rpy", 3}, {"imu.acc_B", 3}, {"imu.omega_B", 3}}

// BaseStateWidth is the number of values of a flattened base state.
const BaseStateWidth = 16

// Error is a problem with a stream file: the file, the column, the row.
type Error struct {
	File   string
	Column string
	Row    int // -1 when not about a row
	Msg    string
}

func (e *Error) Error() string { return recording.ErrorText(e.File, e.Column, e.Row, e.Msg) }

// StreamFile is an open stream file.
type StreamFile struct {
	Path   string
	Name   string // the data column ("observation.state")
	Kind   Kind
	Rows   int64
	f      *os.File
	pf     *parquet.File
	tcol   int
	tunit  float64 // seconds per unit of timestamp_utc
	leaves []leafInfo
}

type leafInfo struct {
	field string // path without list levels, after the data column ("base.position", "name")
	col   int
	kind  parquet.Kind
}

// listLevel reports whether a path element is a list's own level, not a
// field (Arrow's and Parquet's spellings).
func listLevel(s string) bool {
	switch s {
	case "list", "element", "item", "array", "bag", "array_element":
		return true
	}
	return false
}

// OpenStream opens a stream file whose data column is name.
func OpenStream(path, name string) (sf *StreamFile, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, &Error{File: path, Row: -1, Msg: "not a regular file"}
	}
	defer func() {
		if p := recover(); p != nil {
			err = &Error{File: path, Row: -1, Msg: fmt.Sprintf("corrupt Parquet file (%v)", p)}
		}
		if err != nil {
			f.Close()
		}
	}()
	// parquet-go allocates from declared sizes: check them first.
	if err := pqguard.Check(f, info.Size(), pqguard.Default); err != nil {
		return nil, &Error{File: path, Row: -1, Msg: "cannot read it as Parquet: " + err.Error()}
	}
	pf, err := parquet.OpenFile(f, info.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, &Error{File: path, Row: -1, Msg: "cannot read it as Parquet: " + err.Error()}
	}
	sf = &StreamFile{Path: path, Name: name, f: f, pf: pf, tcol: -1, Rows: pf.NumRows()}
	schema := pf.Schema()
	for i, p := range schema.Columns() {
		if len(p) == 1 && p[0] == TimeColumn {
			sf.tcol = i
			leaf, _ := schema.Lookup(p...)
			if sf.tunit, err = timeUnit(leaf.Node); err != nil {
				return nil, &Error{File: path, Column: TimeColumn, Row: -1, Msg: err.Error()}
			}
			continue
		}
		if len(p) == 0 || p[0] != name {
			continue
		}
		var field []string
		for _, e := range p[1:] {
			if !listLevel(e) {
				field = append(field, e)
			}
		}
		leaf, _ := schema.Lookup(p...)
		sf.leaves = append(sf.leaves, leafInfo{field: strings.Join(field, "."), col: i, kind: leaf.Node.Type().Kind()})
	}
	if sf.tcol < 0 {
		return nil, &Error{File: path, Column: TimeColumn, Row: -1, Msg: "missing column: every Dora-record stream has timestamp_utc"}
	}
	if len(sf.leaves) == 0 {
		return nil, &Error{File: path, Column: name, Row: -1, Msg: "missing data column"}
	}
	if err := sf.classify(); err != nil {
		return nil, err
	}
	return sf, nil
}

// timeUnit is the seconds per stored unit of a timestamp column.
func timeUnit(n parquet.Node) (float64, error) {
	t := n.Type()
	if t.Kind() != parquet.Int64 {
		return 0, fmt.Errorf("a %s column, expected timestamp[ns] (INT64)", t.Kind())
	}
	if lt := t.LogicalType(); lt != nil {
		if ts, ok := lt.Value.(*format.TimestampType); ok && ts.Unit.Value != nil {
			return ts.Unit.Value.Duration().Seconds(), nil
		}
	}
	if ct := t.ConvertedType(); ct != nil {
		switch *ct {
		case deprecated.TimestampMillis:
			return 1e-3, nil
		case deprecated.TimestampMicros:
			return 1e-6, nil
		}
	}
	return 1e-9, nil // Arrow's timestamp[ns] without an annotation
}

// classify finds the data column's layout from its leaves.
func (sf *StreamFile) classify() error {
	has := map[string]leafInfo{}
	for _, l := range sf.leaves {
		has[l.field] = l
	}
	numeric := func(l leafInfo) bool {
		switch l.kind {
		case parquet.Double, parquet.Float, parquet.Int32, parquet.Int64:
			return true
		}
		return false
	}
	if n, ok := has["name"]; ok {
		v, ok := has["value"]
		if !ok || n.kind != parquet.ByteArray || !numeric(v) {
			return &Error{File: sf.Path, Column: sf.Name, Row: -1, Msg: "a list of named values needs a string name and a numeric value"}
		}
		sf.Kind, sf.leaves = Named, []leafInfo{n, v}
		return nil
	}
	if _, ok := has["base.position"]; ok {
		// base.position is needed; a missing quat, rpy or IMU reads as NaN.
		var ls []leafInfo
		for _, bf := range baseFields {
			l, ok := has[bf.path]
			if ok && !numeric(l) {
				return &Error{File: sf.Path, Column: sf.Name + "." + bf.path, Row: -1, Msg: "not numbers"}
			}
			if !ok {
				l.col = -1
			}
			ls = append(ls, l)
		}
		sf.Kind, sf.leaves = BaseState, ls
		return nil
	}
	if len(sf.leaves) == 1 && numeric(sf.leaves[0]) {
		sf.Kind = Numbers
		return nil
	}
	fields := make([]string, len(sf.leaves))
	for i, l := range sf.leaves {
		fields[i] = l.field
	}
	return &Error{File: sf.Path, Column: sf.Name, Row: -1, Msg: "unknown layout (fields " + strings.Join(fields, ", ") + "): expected named values, numbers or a base state"}
}

// Close closes the file.
func (sf *StreamFile) Close() error { return sf.f.Close() }

// Sample is one row of a stream.
type Sample struct {
	// T is timestamp_utc in unix seconds.
	T float64
	// Names are the value names of a Named stream (valid until the next
	// call); nil for the others.
	Names []string
	// Values are the numbers: named values in order, the base state's 16,
	// or the list's.
	Values []float64
}

// Reader reads a stream's rows in order.
type Reader struct {
	sf        *StreamFile
	times     *leafCursor
	leaves    []*leafCursor
	timesOnly bool
	row       int
	s         Sample
	vals      [][]parquet.Value
	names     []string
	nameB     [][]byte
}

// Reader reads the stream from its start; timesOnly reads the timestamp
// column alone (Values and Names stay empty).
func (sf *StreamFile) Reader(timesOnly bool) *Reader {
	r := &Reader{sf: sf, times: newLeaf(sf, sf.tcol), timesOnly: timesOnly}
	if !timesOnly {
		for _, l := range sf.leaves {
			var c *leafCursor
			if l.col >= 0 {
				c = newLeaf(sf, l.col)
			}
			r.leaves = append(r.leaves, c)
		}
		r.vals = make([][]parquet.Value, len(r.leaves))
	}
	return r
}

// Next reads the next row; io.EOF after the last.
func (r *Reader) Next() (s *Sample, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, r.fail("", fmt.Sprintf("corrupt data (%v)", p))
		}
	}()
	tv, err := r.times.next(nil)
	if err != nil {
		if err == io.EOF {
			return nil, io.EOF
		}
		return nil, r.fail(TimeColumn, err.Error())
	}
	if len(tv) != 1 || tv[0].IsNull() {
		return nil, r.fail(TimeColumn, "no time")
	}
	r.s.T = float64(tv[0].Int64()) * r.sf.tunit
	r.s.Values, r.s.Names = r.s.Values[:0], nil
	if r.timesOnly {
		r.row++
		return &r.s, nil
	}
	for i, l := range r.leaves {
		if l == nil {
			continue
		}
		if r.vals[i], err = l.next(r.vals[i][:0]); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, r.fail(r.sf.Name+"."+r.sf.leaves[i].field, err.Error())
		}
	}
	switch r.sf.Kind {
	case Named:
		if err := r.named(); err != nil {
			return nil, err
		}
	case BaseState:
		for i, bf := range baseFields {
			vs := r.vals[i]
			if r.leaves[i] == nil {
				for range bf.width {
					r.s.Values = append(r.s.Values, math.NaN())
				}
				continue
			}
			if len(vs) != bf.width {
				return nil, r.fail(r.sf.Name+"."+bf.path, fmt.Sprintf("%d values, expected %d", countPresent(vs), bf.width))
			}
			for _, v := range vs {
				x, ok := number(v)
				if !ok {
					return nil, r.fail(r.sf.Name+"."+bf.path, "a null value")
				}
				r.s.Values = append(r.s.Values, x)
			}
		}
	default:
		for _, v := range r.vals[0] {
			if v.IsNull() {
				continue // an empty or null list
			}
			x, _ := number(v)
			r.s.Values = append(r.s.Values, x)
		}
	}
	r.row++
	return &r.s, nil
}

func countPresent(vs []parquet.Value) int {
	n := 0
	for _, v := range vs {
		if !v.IsNull() {
			n++
		}
	}
	return n
}

// named decodes the names and values of a row; names are compared with
// the previous row's as bytes and only converted when they change.
func (r *Reader) named() error {
	ns, vs := r.vals[0], r.vals[1]
	if len(ns) != len(vs) {
		return r.fail(r.sf.Name, fmt.Sprintf("%d names and %d values", len(ns), len(vs)))
	}
	same := len(ns) == len(r.nameB)
	for i := 0; same && i < len(ns); i++ {
		same = string(ns[i].ByteArray()) == string(r.nameB[i])
	}
	if !same {
		r.names, r.nameB = r.names[:0], r.nameB[:0]
		for _, n := range ns {
			if n.IsNull() {
				continue
			}
			b := append([]byte(nil), n.ByteArray()...)
			r.nameB = append(r.nameB, b)
			r.names = append(r.names, string(b))
		}
	}
	for i, v := range vs {
		if ns[i].IsNull() {
			continue
		}
		x, ok := number(v)
		if !ok {
			x = math.NaN()
		}
		r.s.Values = append(r.s.Values, x)
	}
	r.s.Names = r.names
	return nil
}

func number(v parquet.Value) (float64, bool) {
	if v.IsNull() {
		return 0, false
	}
	switch v.Kind() {
	case parquet.Double:
		return v.Double(), true
	case parquet.Float:
		return float64(v.Float()), true
	case parquet.Int32:
		return float64(v.Int32()), true
	case parquet.Int64:
		return float64(v.Int64()), true
	}
	return 0, false
}

func (r *Reader) fail(col, msg string) error {
	return &Error{File: r.sf.Path, Column: col, Row: r.row, Msg: msg}
}

// leafCursor reads one leaf column's values across the row groups, a
// page at a time, and splits them into rows (a value with repetition
// level 0 starts a row).
type leafCursor struct {
	sf    *StreamFile
	col   int
	rg    int
	pages parquet.Pages
	vr    parquet.ValueReader
	buf   []parquet.Value
	i, n  int
	eof   bool
}

func newLeaf(sf *StreamFile, col int) *leafCursor {
	return &leafCursor{sf: sf, col: col, buf: make([]parquet.Value, 1024)}
}

// peek makes buf[i] the next value; false at the end of the column.
func (l *leafCursor) peek() (bool, error) {
	for l.i >= l.n {
		if l.eof {
			return false, nil
		}
		if l.vr != nil {
			n, err := l.vr.ReadValues(l.buf)
			l.i, l.n = 0, n
			if err == io.EOF {
				l.vr = nil
			} else if err != nil {
				return false, err
			}
			continue
		}
		if l.pages != nil {
			p, err := l.pages.ReadPage()
			if err == nil {
				l.vr = p.Values()
				continue
			}
			l.pages.Close()
			l.pages = nil
			if err != io.EOF {
				return false, err
			}
			l.rg++
		}
		rgs := l.sf.pf.RowGroups()
		if l.rg >= len(rgs) {
			l.eof = true
			return false, nil
		}
		l.pages = rgs[l.rg].ColumnChunks()[l.col].Pages()
	}
	return true, nil
}

// next appends the next row's values to dst.
func (l *leafCursor) next(dst []parquet.Value) ([]parquet.Value, error) {
	ok, err := l.peek()
	if err != nil {
		return dst, err
	}
	if !ok {
		return dst, io.EOF
	}
	dst = append(dst, l.buf[l.i])
	l.i++
	for {
		ok, err := l.peek()
		if err != nil {
			return dst, err
		}
		if !ok || l.buf[l.i].RepetitionLevel() == 0 {
			return dst, nil
		}
		dst = append(dst, l.buf[l.i])
		l.i++
	}
}
