package lsp

import (
	"net/url"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// MaxDocumentBytes bounds an open document's text; an edit that would
// make it longer is refused.
const MaxDocumentBytes = 8 << 20

// document is one open file at one version. It is never changed once
// stored: an edit makes a new document, so a request holds a consistent
// snapshot for as long as it runs.
type document struct {
	uri     string
	path    string // the local file the URI names; "" if it is not a file URI
	version int
	text    string
	lines   []int  // byte offset of each line's start
	ascii   []bool // per line: all ASCII, so a byte is a unit in either encoding
	utf8    bool   // positions count bytes (negotiated), else UTF-16 units

	once sync.Once
	ol   *outline

	u16once sync.Once
	u16     []checkpoint // every u16Step bytes, for positions beyond ASCII
}

// checkpoint records, at a byte offset k*u16Step, the UTF-16 units of the
// runes that start before it and where the first rune at or after it
// starts, so converting an offset decodes at most u16Step bytes however
// long its line.
type checkpoint struct {
	units int32
	next  int32
}

const u16Step = 64

// unitsBefore is the number of UTF-16 units of the runes that start
// before off: a rune cut by off counts whole.
func (d *document) unitsBefore(off int) int {
	d.u16once.Do(func() {
		d.u16 = make([]checkpoint, 0, len(d.text)/u16Step+1)
		units, i := 0, 0
		for b := 0; b <= len(d.text); b += u16Step {
			for i < b {
				r, size := utf8.DecodeRuneInString(d.text[i:])
				units += d.units(r, size)
				i += size
			}
			d.u16 = append(d.u16, checkpoint{int32(units), int32(i)})
		}
	})
	c := d.u16[off/u16Step]
	units := int(c.units)
	for i := int(c.next); i < off; {
		r, size := utf8.DecodeRuneInString(d.text[i:])
		units += d.units(r, size)
		i += size
	}
	return units
}

// outline is the document's outline, scanned once on first use.
func (d *document) outline() *outline {
	d.once.Do(func() { d.ol = scan(d.text) })
	return d.ol
}

func newDocument(uri string, version int, text string, utf8Positions bool) *document {
	d := &document{uri: uri, path: uriPath(uri), version: version, text: text, utf8: utf8Positions}
	d.lines = append(d.lines, 0)
	ascii := true
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '\n':
			d.ascii = append(d.ascii, ascii)
			d.lines = append(d.lines, i+1)
			ascii = true
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	d.ascii = append(d.ascii, ascii)
	return d
}

// lineEnd is the offset of the end of line n's text (before its break).
func (d *document) lineEnd(n int) int {
	if n+1 == len(d.lines) {
		return len(d.text) // the last line has no break
	}
	end := d.lines[n+1] - 1
	if end > d.lines[n] && d.text[end-1] == '\r' {
		end-- // a CR LF break
	}
	return end
}

// offset converts a protocol position into a byte offset, clamped to the
// text: a line past the end is the end, a character past the line's end
// is the line's end.
func (d *document) offset(p position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(d.lines) {
		return len(d.text)
	}
	i, end := d.lines[p.Line], d.lineEnd(p.Line)
	if d.utf8 || d.ascii[p.Line] {
		o := min(i+max(p.Character, 0), end)
		for o > i && o < len(d.text) && !utf8.RuneStart(d.text[o]) {
			o-- // inside a rune: stay before it
		}
		return o
	}
	for units := 0; i < end && units < p.Character; {
		r, size := utf8.DecodeRuneInString(d.text[i:])
		units += d.units(r, size)
		if units > p.Character { // inside a surrogate pair: stay before it
			break
		}
		i += size
	}
	return i
}

// units is how many position units a rune of size bytes counts.
func (d *document) units(r rune, size int) int {
	switch {
	case d.utf8:
		return size
	case r >= 0x10000:
		return 2
	}
	return 1 // a byte that is not UTF-8 reached JSON as U+FFFD: one unit
}

// position converts a byte offset into a protocol position.
func (d *document) position(off int) position {
	off = max(0, min(off, len(d.text)))
	line := sort.Search(len(d.lines), func(i int) bool { return d.lines[i] > off }) - 1
	start := d.lines[line]
	if d.utf8 || d.ascii[line] {
		return position{Line: line, Character: off - start}
	}
	return position{Line: line, Character: d.unitsBefore(off) - d.unitsBefore(start)}
}

func (d *document) rangeOf(start, end int) lspRange {
	if end < start {
		end = start
	}
	return lspRange{Start: d.position(start), End: d.position(end)}
}

// applyChange returns the text with one content change applied: the whole
// text when the change has no range.
func (d *document) applyChange(c contentChange) string {
	if c.Range == nil {
		return c.Text
	}
	s, e := d.offset(c.Range.Start), d.offset(c.Range.End)
	if e < s {
		s, e = e, s
	}
	return d.text[:s] + c.Text + d.text[e:]
}

// uriPath is the local path of a file URI, or "".
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	p := u.Path
	if runtime.GOOS == "windows" {
		// file:///C:/dir/x.bddl: the path is /C:/dir/x.bddl.
		if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
			p = p[1:]
		}
		if u.Host != "" { // a UNC share
			p = "//" + u.Host + p
		}
	}
	return filepath.FromSlash(p)
}

// pathURI is the file URI of a local path.
func pathURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}
