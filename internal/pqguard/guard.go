// Package pqguard checks a Parquet file's declared sizes before
// parquet-go reads it.
//
// parquet-go pre-sizes slices from the lengths a file declares (a 21-byte
// footer declaring 2³¹−1 schema elements ends the process with Go's
// unrecoverable "fatal error: out of memory", which recover cannot catch)
// and decompresses pages with no output limit. Check walks the footer and
// every page header without allocating from them, and decompresses each
// compressed page into a counter that stops at its declared size, so that
// what parquet-go is then given is bounded by Limits.
package pqguard

import (
	"encoding/binary"
	"fmt"
	"io"
)

// Limits are the largest sizes a file may declare.
type Limits struct {
	Footer     int // bytes of the footer (FileMetaData)
	Objects    int // list elements in the footer (schema elements, row groups, column chunks, ...)
	Schema     int // schema elements
	RowGroups  int
	PageHeader int   // bytes of one page header
	PageBytes  int   // a page's compressed or uncompressed size
	PageValues int   // values of one page (or dictionary)
	Rows       int64 // rows of the file
}

// Default are the limits bddl reads Dora-record streams with (see
// docs/limits.md). A stream of an hour at 100 Hz is 360,000 rows in a
// few row groups and pages of about 1 MiB.
var Default = Limits{
	Footer:     16 << 20,
	Objects:    1 << 18,
	Schema:     10_000,
	RowGroups:  10_000,
	PageHeader: 1 << 20,
	PageBytes:  64 << 20,
	PageValues: 1 << 22,
	Rows:       1 << 31,
}

// Error is a declared size refused.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func errorf(format string, a ...any) error { return &Error{Msg: fmt.Sprintf(format, a...)} }

// chunk is a column chunk as the footer declares it.
type chunk struct {
	codec       int64
	start, size int64 // of its pages
}

// Check checks the footer and pages of the Parquet file r of size bytes.
func Check(r io.ReaderAt, size int64, lim Limits) error {
	if size < 12 {
		return errorf("%d bytes: too short for Parquet", size)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if string(tail[4:]) != "PAR1" {
		return errorf("not a Parquet file (no PAR1 at its end)")
	}
	flen := int64(binary.LittleEndian.Uint32(tail[:4]))
	if flen > size-12 {
		return errorf("the footer declares %d bytes in a file of %d", flen, size)
	}
	if flen > int64(lim.Footer) {
		return errorf("the footer declares %d bytes (limit %d)", flen, lim.Footer)
	}
	footer := make([]byte, flen)
	if _, err := r.ReadAt(footer, size-8-flen); err != nil {
		return err
	}
	chunks, err := CheckFooter(footer, lim)
	if err != nil {
		return err
	}
	p := pager{r: r, lim: lim}
	defer func() {
		if p.zstd != nil {
			p.zstd.Close()
		}
	}()
	end := size - 8 - flen
	for _, c := range chunks {
		if c.start < 4 || c.size < 0 || c.start > end || c.size > end-c.start {
			return errorf("a column chunk declares bytes %d–%d outside the data (4–%d)", c.start, c.start+c.size, end)
		}
		if err := p.chunk(c); err != nil {
			return err
		}
	}
	return nil
}

// CheckFooter walks a FileMetaData message and returns its column chunks.
func CheckFooter(footer []byte, lim Limits) (chunks []chunk, err error) {
	w := &walker{b: footer, maxObj: lim.Objects}
	err = w.structFields(0, func(t byte, id int16) (bool, error) {
		switch {
		case id == 2 && t == tList: // schema
			et, n, err := w.listHeader("the schema")
			if err != nil {
				return true, err
			}
			if n > lim.Schema {
				return true, errorf("the schema declares %d elements (limit %d)", n, lim.Schema)
			}
			for range n {
				if err := w.elem(et, 2); err != nil {
					return true, err
				}
			}
			return true, nil
		case id == 3: // num_rows
			v, ok, err := w.int(t)
			if ok && err == nil && (v < 0 || v > lim.Rows) {
				err = errorf("the file declares %d rows (limit %d)", v, lim.Rows)
			}
			return ok, err
		case id == 4 && t == tList: // row_groups
			et, n, err := w.listHeader("the row groups")
			if err != nil {
				return true, err
			}
			if n > lim.RowGroups {
				return true, errorf("the file declares %d row groups (limit %d)", n, lim.RowGroups)
			}
			for range n {
				if et != tStruct {
					if err := w.elem(et, 2); err != nil {
						return true, err
					}
					continue
				}
				if err := w.rowGroup(&chunks); err != nil {
					return true, err
				}
			}
			return true, nil
		}
		return false, nil
	})
	if err == errShort {
		err = errorf("the footer is cut short")
	}
	if err != nil {
		if _, ok := err.(*Error); !ok {
			err = errorf("corrupt footer: %v", err)
		}
	}
	return chunks, err
}

func (w *walker) rowGroup(chunks *[]chunk) error {
	return w.structFields(2, func(t byte, id int16) (bool, error) {
		if id != 1 || t != tList { // columns
			return false, nil
		}
		et, n, err := w.listHeader("a row group's columns")
		if err != nil {
			return true, err
		}
		for range n {
			if et != tStruct {
				if err := w.elem(et, 3); err != nil {
					return true, err
				}
				continue
			}
			c := chunk{start: -1}
			var data, dict int64
			err := w.structFields(3, func(t byte, id int16) (bool, error) {
				if id != 3 || t != tStruct { // meta_data
					return false, nil
				}
				return true, w.structFields(4, func(t byte, id int16) (bool, error) {
					var p *int64
					switch id {
					case 4:
						p = &c.codec
					case 7:
						p = &c.size
					case 9:
						p = &data
					case 11:
						p = &dict
					default:
						return false, nil
					}
					v, ok, err := w.int(t)
					if ok {
						*p = v
					}
					return ok, err
				})
			})
			if err != nil {
				return true, err
			}
			// As parquet-go reads it (FilePages.init).
			c.start = data
			if dict != 0 {
				c.start = dict
			}
			*chunks = append(*chunks, c)
		}
		return true, nil
	})
}

// page is a page header's sizes.
type page struct {
	typ                      int64
	uncompressed, compressed int64
	values                   int64
	levels                   int64 // v2: bytes of levels before the (compressed) values
	v2, notCompressed        bool
}

func parsePage(w *walker) (p page, err error) {
	err = w.structFields(0, func(t byte, id int16) (bool, error) {
		switch id {
		case 1, 2, 3:
			v, ok, err := w.int(t)
			switch id {
			case 1:
				p.typ = v
			case 2:
				p.uncompressed = v
			case 3:
				p.compressed = v
			}
			return ok, err
		case 5, 7, 8: // data_page_header, dictionary_page_header, data_page_header_v2
			if t != tStruct {
				return false, nil
			}
			p.v2 = id == 8
			return true, w.structFields(1, func(t byte, sub int16) (bool, error) {
				if t == tTrue || t == tFalse {
					if id == 8 && sub == 7 { // is_compressed
						p.notCompressed = t == tFalse
					}
					return true, nil
				}
				v, ok, err := w.int(t)
				if !ok || err != nil {
					return ok, err
				}
				switch {
				case sub == 1:
					p.values = v
				case id == 8 && (sub == 5 || sub == 6):
					if v < 0 || v > 1<<31 {
						return true, errorf("a page declares %d bytes of levels", v)
					}
					p.levels += v
				}
				return true, nil
			})
		}
		return false, nil
	})
	return p, err
}
