package robolab

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/scigolib/hdf5"

	"github.com/openbddl/bddl/internal/h5util"
)

// column reads a dataset of T rows a block of rows at a time: a whole
// number of chunks, about blockBytes of values, so memory stays bounded
// whatever T is and each chunk is decompressed once. A dataset of at most
// wholeBytes of values is read at once instead: the library reads a whole
// dataset about three times faster than a slice of it.
type column struct {
	lib   *sync.Mutex // the run's: held while the library reads
	file  string
	path  string // in the file: data/demo_0/bbox/bbox_mm/apple
	ds    *hdf5.Dataset
	dims  []uint64
	width int // values per row
	rows  int
	// blockRows is the number of rows read at once; stored counts the
	// stored chunks of each block of chunkRows rows, perBlock the chunks
	// a block has when whole, and incomplete says some block lacks one.
	blockRows  int
	chunkRows  int
	stored     map[int]int
	perBlock   int
	incomplete bool

	block []float64
	start int  // first row of block
	n     int  // rows in block
	whole bool // read the dataset at once (until that fails)
}

// blockBytes is the size of the values a column keeps in memory when it
// reads blocks; wholeBytes the most it reads at once, and streamBytes the
// most all the columns of a stream read at once (so memory stays bounded
// whatever the number of objects too).
const (
	blockBytes  = 64 << 10
	wholeBytes  = 1 << 20
	streamBytes = 32 << 20
)

// The declared layout a column accepts, checked before the library reads
// anything: a chunk decodes whole, so its size bounds the memory of a
// read (h5py's automatic chunks stay under 1 MiB); a step's values are a
// few dozen numbers; the steps are bounded by what a recording holds (a
// day at 100 Hz is 8.6 M steps), so that a few megabytes of compressed
// rows cannot declare an evaluation of hours.
const (
	maxChunkBytes = 8 << 20
	maxRowValues  = 1 << 16
	maxRows       = 1 << 24
)

// checkChunk refuses a chunk layout whose chunk, decoded as float64,
// exceeds maxChunkBytes; "" when it is acceptable.
func checkChunk(dims, chunk []uint64) string {
	n := uint64(8)
	for _, d := range chunk {
		if d == 0 {
			return "unreadable chunk layout (a chunk dimension of 0)"
		}
		if n > maxChunkBytes/d {
			return fmt.Sprintf("chunk %s of a dataset %s declares more than the %d MiB a chunk may hold read as 64-bit numbers", shapeText(chunk), shapeText(dims), maxChunkBytes>>20)
		}
		n *= d
	}
	return ""
}

// testReadHook, when set by a test, is called with the path of every
// dataset opened or read.
var testReadHook func(path string)

// openColumn opens a dataset for reading by rows. shape gives the
// expected size of each dimension after the first (0: any size ≥ 1).
func openColumn(run *Run, path string, obj hdf5.Object, shape ...int) (c *column, err error) {
	file, fileSize := run.Path, run.size
	if testReadHook != nil {
		testReadHook(path)
	}
	ds, ok := obj.(*hdf5.Dataset)
	if !ok {
		if obj == nil {
			return nil, &Error{File: file, Path: path, Msg: "missing dataset"}
		}
		return nil, &Error{File: file, Path: path, Msg: "a group where a dataset was expected"}
	}
	defer func() {
		if p := recover(); p != nil {
			c, err = nil, &Error{File: file, Path: path, Msg: fmt.Sprintf("corrupt dataset (%v)", p)}
		}
	}()
	c = &column{lib: &run.lib, file: file, path: path, ds: ds}
	chunkRows := 0
	it, err := ds.ChunkIterator()
	if err == nil {
		c.dims = it.DatasetDims()
		chunk := it.ChunkDims()
		if len(chunk) != len(c.dims) || len(chunk) == 0 || chunk[0] == 0 {
			return nil, c.fail(-1, "unreadable chunk layout")
		}
		if msg := checkChunk(c.dims, chunk); msg != "" {
			return nil, c.fail(-1, msg)
		}
		chunkRows = int(chunk[0])
		// Which row blocks have all their chunks stored: a chunk never
		// written (a file cut while recording) would read as zeros. Only
		// the stored chunks are counted, never the declared blocks, which
		// a header may make 10^12.
		c.perBlock = 1
		for i := 1; i < len(chunk); i++ {
			c.perBlock *= int((c.dims[i] + chunk[i] - 1) / chunk[i])
		}
		c.stored = map[int]int{}
		for it.Next() {
			c.stored[int(it.ChunkCoords()[0])]++
		}
		blocks := (c.dims[0] + chunk[0] - 1) / chunk[0]
		full := 0
		for _, n := range c.stored {
			if n >= c.perBlock {
				full++
			}
		}
		c.incomplete = uint64(full) < blocks
	} else if strings.Contains(err.Error(), "only supports chunked") {
		info, ierr := ds.Info()
		if ierr != nil {
			return nil, c.fail(-1, "unreadable: "+ierr.Error())
		}
		if c.dims, ok = h5util.ArrayDims(info); !ok {
			return nil, c.fail(-1, "unreadable shape: "+info)
		}
	} else {
		return nil, c.fail(-1, "unreadable: "+err.Error())
	}
	if len(c.dims) != 1+len(shape) {
		return nil, c.fail(-1, fmt.Sprintf("shape %s, expected %s", shapeText(c.dims), expectedShape(shape)))
	}
	c.width = 1
	for i, want := range shape {
		d := c.dims[i+1]
		if want > 0 && d != uint64(want) || d == 0 {
			return nil, c.fail(-1, fmt.Sprintf("shape %s, expected %s", shapeText(c.dims), expectedShape(shape)))
		}
		if d > maxRowValues || uint64(c.width)*d > maxRowValues {
			return nil, c.fail(-1, fmt.Sprintf("shape %s: more than %d values a step", shapeText(c.dims), maxRowValues))
		}
		c.width *= int(d)
	}
	if c.dims[0] > maxRows {
		return nil, c.fail(-1, fmt.Sprintf("shape %s: more than %d steps", shapeText(c.dims), maxRows))
	}
	if chunkRows == 0 && fileSize > 0 && c.dims[0]*uint64(c.width) > uint64(fileSize) {
		// Contiguous values are stored in the file, at least a byte each.
		return nil, c.fail(-1, fmt.Sprintf("shape %s declares more values than the %d-byte file can hold", shapeText(c.dims), fileSize))
	}
	c.rows = int(c.dims[0])
	per := max(1, blockBytes/(8*c.width))
	if chunkRows > 0 {
		c.chunkRows = chunkRows
		per = max(1, per/chunkRows) * chunkRows
	}
	c.blockRows = per
	c.whole = c.size() <= wholeBytes && !c.incomplete
	return c, nil
}

// size is the bytes of the dataset's values as float64.
func (c *column) size() int { return c.rows * c.width * 8 }

// row returns the values of row k (valid until the next call).
func (c *column) row(k int) ([]float64, error) {
	if k < c.start || k >= c.start+c.n {
		if err := c.load(k); err != nil {
			return nil, err
		}
	}
	off := (k - c.start) * c.width
	return c.block[off : off+c.width], nil
}

// load reads the block holding row k.
func (c *column) load(k int) (err error) {
	if k < 0 || k >= c.rows {
		return c.fail(k, fmt.Sprintf("no such row (the dataset has %d)", c.rows))
	}
	if c.whole {
		c.whole = false // once: on failure, blocks find the rows readable
		if vals, ok := c.readWhole(); ok {
			c.block, c.start, c.n = vals, 0, c.rows
			return nil
		}
	}
	start := k / c.blockRows * c.blockRows
	n := min(c.blockRows, c.rows-start)
	if c.incomplete {
		for r := start; r < start+n; r += c.chunkRows {
			if c.stored[r/c.chunkRows] < c.perBlock {
				return &Error{File: c.file, Path: c.path, Step: r, HasStep: true, Truncated: true,
					Msg: fmt.Sprintf("no data stored for steps %d–%d (a chunk is missing: the file was cut while recording?)", r, min(r+c.chunkRows, c.rows)-1)}
			}
		}
	}
	if testReadHook != nil {
		testReadHook(c.path)
	}
	c.lib.Lock()
	defer c.lib.Unlock()
	defer func() {
		if p := recover(); p != nil {
			err = c.fail(start, fmt.Sprintf("corrupt data (%v)", p))
		}
	}()
	startIdx := make([]uint64, len(c.dims))
	count := make([]uint64, len(c.dims))
	startIdx[0], count[0] = uint64(start), uint64(n)
	copy(count[1:], c.dims[1:])
	v, err := c.ds.ReadSlice(startIdx, count)
	if err != nil && c.chunkRows > 0 && n > c.chunkRows {
		// A block of several chunks failed: read just the chunk of row
		// k, so that the rows before an unreadable chunk (a file cut
		// short) are still read.
		start = k / c.chunkRows * c.chunkRows
		n = min(c.chunkRows, c.rows-start)
		startIdx[0], count[0] = uint64(start), uint64(n)
		v, err = c.ds.ReadSlice(startIdx, count)
	}
	if err != nil {
		return &Error{File: c.file, Path: c.path, Step: start, HasStep: true, Truncated: true,
			Msg: "cannot read steps " + strconv.Itoa(start) + "–" + strconv.Itoa(start+n-1) + ": " + err.Error()}
	}
	vals, ok := v.([]float64)
	if !ok || len(vals) != n*c.width {
		return c.fail(start, fmt.Sprintf("read %d values, expected %d", len(vals), n*c.width))
	}
	c.block, c.start, c.n = vals, start, n
	return nil
}

// readWhole reads the whole dataset; false when that fails.
func (c *column) readWhole() (vals []float64, ok bool) {
	if testReadHook != nil {
		testReadHook(c.path)
	}
	c.lib.Lock()
	defer c.lib.Unlock()
	defer func() {
		if recover() != nil {
			vals, ok = nil, false
		}
	}()
	v, err := c.ds.Read()
	if err != nil || len(v) != c.rows*c.width {
		return nil, false
	}
	return v, true
}

func (c *column) fail(step int, msg string) *Error {
	return &Error{File: c.file, Path: c.path, Step: step, HasStep: step >= 0, Msg: msg}
}

func shapeText(dims []uint64) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = strconv.FormatUint(d, 10)
	}
	return "[" + strings.Join(parts, " × ") + "]"
}

func expectedShape(shape []int) string {
	parts := []string{"T"}
	for _, d := range shape {
		if d > 0 {
			parts = append(parts, strconv.Itoa(d))
		} else {
			parts = append(parts, "N")
		}
	}
	return "[" + strings.Join(parts, " × ") + "]"
}
