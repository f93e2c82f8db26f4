package pqguard

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
)

// enc writes Thrift compact protocol for hand-built hostile files.
type enc struct {
	b    []byte
	last []int16
}

func (e *enc) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) field(id int16, t byte) {
	last := e.last[len(e.last)-1]
	if d := id - last; d > 0 && d <= 15 {
		e.b = append(e.b, byte(d)<<4|t)
	} else {
		e.b = append(e.b, t)
		e.uvarint(uint64(int64(id)<<1 ^ int64(id)>>15))
	}
	e.last[len(e.last)-1] = id
}
func (e *enc) i(id int16, t byte, v int64) { e.field(id, t); e.uvarint(uint64(v<<1 ^ v>>63)) }
func (e *enc) begin(id int16)              { e.field(id, tStruct); e.last = append(e.last, 0) }
func (e *enc) end()                        { e.b = append(e.b, 0); e.last = e.last[:len(e.last)-1] }
func (e *enc) list(id int16, et byte, n uint64) {
	e.field(id, tList)
	if n < 15 {
		e.b = append(e.b, byte(n)<<4|et)
		return
	}
	e.b = append(e.b, 0xf0|et)
	e.uvarint(n)
}
func (e *enc) elem() { e.last = append(e.last, 0) } // a struct element of a list

func newEnc() *enc { return &enc{last: []int16{0}} }

// file builds a Parquet file of one column chunk of the given pages.
func file(codec int64, pages ...[]byte) []byte {
	body := []byte("PAR1")
	start := len(body)
	for _, p := range pages {
		body = append(body, p...)
	}
	f := newEnc()
	f.list(2, tStruct, 1)
	f.elem()
	f.end()
	f.i(3, tI64, 1)
	f.list(4, tStruct, 1)
	f.elem()
	f.list(1, tStruct, 1)
	f.elem()
	f.begin(3)
	f.i(4, tI32, codec)
	f.i(7, tI64, int64(len(body)-start))
	f.i(9, tI64, int64(start))
	f.end()
	f.end()
	f.end()
	f.end()
	body = append(body, f.b...)
	body = binary.LittleEndian.AppendUint32(body, uint32(len(f.b)))
	return append(body, "PAR1"...)
}

// pageOf is a data page header followed by its body.
func pageOf(uncompressed int64, values int64, body []byte) []byte {
	e := newEnc()
	e.i(1, tI32, 0)
	e.i(2, tI32, uncompressed)
	e.i(3, tI32, int64(len(body)))
	e.begin(5)
	e.i(1, tI32, values)
	e.end()
	e.end()
	return append(e.b, body...)
}

func cut(b []byte, n int) []byte { return b[:len(b)-n] }

// modDir is parquet-go's module directory.
func modDir(t *testing.T) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/parquet-go/parquet-go").Output()
	if err != nil {
		t.Skip("no module cache:", err)
	}
	return strings.TrimSpace(string(out))
}

func footerFile(footer []byte) []byte {
	b := append([]byte("PAR1"), footer...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(footer)))
	return append(b, "PAR1"...)
}

func TestHostile(t *testing.T) {
	t.Parallel()
	bomb := func(id int16) []byte {
		e := newEnc()
		e.list(id, tStruct, 1<<31-1)
		return footerFile(e.b)
	}
	var z bytes.Buffer
	zw, _ := zstd.NewWriter(&z)
	zw.Write(make([]byte, 8<<20))
	zw.Close()
	for _, tc := range []struct {
		name, data, want string
	}{
		{"schema bomb", string(bomb(2)), "the schema declares 2147483647 elements in 0 bytes"},
		{"row group bomb", string(bomb(4)), "the row groups declares 2147483647 elements"},
		{"string bomb", string(footerFile([]byte{0x18, 0xff, 0xff, 0xff, 0xff, 0x07})), "cut short"},
		{"footer longer than file", "PAR1\xff\xff\xff\x7fPAR1", "the footer declares 2147483647 bytes in a file of 12"},
		{"too short", "PAR1PAR1", "too short"},
		{"not parquet", "PAR1\x00\x00\x00\x00PAR2", "not a Parquet file"},
		{"page too large", string(file(0, pageOf(1_500_000_000, 1, make([]byte, 8000)))), "declares 1500000000 bytes"},
		{"page values", string(file(0, pageOf(8, 1<<30, make([]byte, 8)))), "declares 1073741824 values"},
		{"page past chunk", string(file(0, cut(pageOf(8, 1, make([]byte, 100)), 50))), "past its column chunk"},
		{"zstd bomb", string(file(codecZstd, pageOf(4096, 1, z.Bytes()))), "decodes to more than its declared 4096 bytes"},
		{"lz4 garbage", string(file(codecLz4Raw, pageOf(16, 1, []byte{0xff, 0xff, 0xff, 0xff}))), "does not decode"},
		{"snappy bomb", string(file(codecSnappy, pageOf(16, 1, []byte{0x80, 0x80, 0x80, 0x08, 0}))), "decodes to more than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := Check(strings.NewReader(tc.data), int64(len(tc.data)), Default)
			if tc.want == "" {
				return // only: no panic
			}
			var e *Error
			if err == nil || !errors.As(err, &e) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Check = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestLimits(t *testing.T) {
	t.Parallel()
	many := func(id int16, n uint64) []byte {
		e := newEnc()
		e.list(id, tStruct, n)
		for range n {
			e.b = append(e.b, 0)
		}
		e.end()
		return footerFile(e.b)
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"schema", many(2, 10_001), "the schema declares 10001 elements (limit 10000)"},
		{"row groups", many(4, 10_001), "the file declares 10001 row groups (limit 10000)"},
		{"objects", many(6, 1<<18+1), "more than 262144 metadata objects"},
	} {
		err := Check(bytes.NewReader(tc.data), int64(len(tc.data)), Default)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Check = %v, want %q", tc.name, err, tc.want)
		}
	}
	ok := many(2, 10_000)
	if err := Check(bytes.NewReader(ok), int64(len(ok)), Default); err != nil {
		t.Errorf("10,000 schema elements: %v", err)
	}
}

type row struct {
	T      int64     `parquet:"timestamp_utc"`
	Name   string    `parquet:"name,dict"`
	Values []float64 `parquet:"values,list"`
}

// TestWrittenFilesPass: files parquet-go writes, with every codec, pass.
func TestWrittenFilesPass(t *testing.T) {
	t.Parallel()
	rows := make([]row, 5000)
	for i := range rows {
		rows[i] = row{T: int64(i), Name: []string{"a", "b"}[i%2], Values: []float64{float64(i), 1, 2}}
	}
	for _, c := range []compress.Codec{&parquet.Uncompressed, &parquet.Snappy, &parquet.Gzip, &parquet.Brotli, &parquet.Zstd, &parquet.Lz4Raw} {
		for _, v := range []int{1, 2} {
			var buf bytes.Buffer
			w := parquet.NewGenericWriter[row](&buf, parquet.Compression(c), parquet.PageBufferSize(4096), parquet.MaxRowsPerRowGroup(1500), parquet.DataPageVersion(v), parquet.DataPageStatistics(true))
			if _, err := w.Write(rows); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if err := Check(bytes.NewReader(buf.Bytes()), int64(buf.Len()), Default); err != nil {
				t.Errorf("%s v%d: %v", c, v, err)
			}
		}
	}
}

// TestParquetTestdata: the files of parquet-go's own test suite that it
// reads pass (when the module cache is there).
func TestParquetTestdata(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"small.parquet", "nested_lists.snappy.parquet", "alltypes_tiny_pages_plain.parquet", "null_list.parquet", "nullable.impala.parquet"} {
		b, err := os.ReadFile(modDir(t) + "/testdata/" + name)
		if err != nil {
			t.Skip(err)
		}
		if err := Check(bytes.NewReader(b), int64(len(b)), Default); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func FuzzCheckFooter(f *testing.F) {
	f.Add(file(0, pageOf(8, 1, make([]byte, 8))))
	f.Add(file(codecZstd, pageOf(8, 1, make([]byte, 8))))
	f.Add([]byte{0x29, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07})
	small := Limits{Footer: 1 << 16, Objects: 1 << 10, Schema: 100, RowGroups: 100, PageHeader: 1 << 12, PageBytes: 1 << 16, PageValues: 1 << 12, Rows: 1 << 20}
	f.Fuzz(func(t *testing.T, b []byte) {
		chunks, err := CheckFooter(b, small)
		if err == nil && len(chunks) > small.Objects {
			t.Fatalf("%d chunks past the object limit", len(chunks))
		}
		whole := footerFile(b)
		_ = Check(bytes.NewReader(whole), int64(len(whole)), small)
	})
}
