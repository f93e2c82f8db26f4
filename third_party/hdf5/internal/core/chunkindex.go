package core

// bddl patch: the chunk indexes of a version 4 data layout message
// (libhdf5 1.10+, h5py's libver="latest"): single chunk, implicit, fixed
// array, extensible array and version 2 B-tree, besides the version 1
// B-tree of version 3 layouts. Every block is checked against the file
// before allocation, visited once, and the number of chunks is bounded by
// the dataset's chunk grid.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"

	"github.com/scigolib/hdf5/internal/utils"
)

// ChunkIndexType is a version 4 layout's chunk indexing type.
type ChunkIndexType uint8

// The chunk indexing types of the format specification.
const (
	ChunkIndexBTreeV1    ChunkIndexType = 0 // version 3 layouts
	ChunkIndexSingle     ChunkIndexType = 1
	ChunkIndexImplicit   ChunkIndexType = 2
	ChunkIndexFixedArray ChunkIndexType = 3
	ChunkIndexExtArray   ChunkIndexType = 4
	ChunkIndexBTreeV2    ChunkIndexType = 5
)

// maxChunks bounds the chunks of one dataset an index may list.
const maxChunks = 1 << 24

const undefAddr = ^uint64(0)

// parseChunkedLayoutV4 parses a version 4 chunked layout: flags,
// dimensionality, the size of each encoded dimension, the dimensions
// (the last one the element size), the index type, its parameters and
// the index's address.
func parseChunkedLayoutV4(data []byte, sb *Superblock, msg *DataLayoutMessage) (*DataLayoutMessage, error) {
	msg.Class = LayoutChunked
	if len(data) < 5 {
		return nil, errors.New("chunked layout v4 message too short")
	}
	msg.ChunkFlags = data[2]
	ndims, width := int(data[3]), int(data[4])
	if ndims < 1 || width < 1 || width > 8 {
		return nil, fmt.Errorf("chunked layout v4: %d dimensions of %d bytes", ndims, width)
	}
	p := 5
	if len(data) < p+ndims*width+1 {
		return nil, errors.New("chunked layout v4 dimensions truncated")
	}
	msg.ChunkSize = make([]uint64, ndims)
	for i := range msg.ChunkSize {
		var b [8]byte
		copy(b[:], data[p:p+width])
		msg.ChunkSize[i] = binary.LittleEndian.Uint64(b[:])
		if msg.ChunkSize[i] == 0 {
			return nil, fmt.Errorf("chunked layout v4: chunk dimension %d is 0", i)
		}
		p += width
	}
	msg.ChunkIndex = ChunkIndexType(data[p])
	p++
	var n int
	switch msg.ChunkIndex {
	case ChunkIndexSingle:
		if msg.ChunkFlags&0x02 != 0 {
			n = int(sb.LengthSize) + 4
		}
	case ChunkIndexImplicit:
	case ChunkIndexFixedArray:
		n = 1
	case ChunkIndexExtArray:
		n = 5
	case ChunkIndexBTreeV2:
		n = 6
	default:
		return nil, fmt.Errorf("chunked layout v4: unknown chunk index type %d", msg.ChunkIndex)
	}
	if len(data) < p+n+int(sb.OffsetSize) {
		return nil, errors.New("chunked layout v4 index information truncated")
	}
	msg.IndexParams = data[p : p+n]
	if msg.ChunkIndex == ChunkIndexSingle && n > 0 {
		msg.SingleChunkBytes = readUint64(data[p:], int(sb.LengthSize), binary.LittleEndian)
	}
	p += n
	msg.DataAddress = readUint64(data[p:], int(sb.OffsetSize), binary.LittleEndian)
	return msg, nil
}

// CollectChunks lists the chunks of a chunked dataset with the given
// dimensions and maximum dimensions (nil: the same), whatever its index.
func CollectChunks(r io.ReaderAt, layout *DataLayoutMessage, dims, maxDims []uint64, sb *Superblock) ([]ChunkEntry, error) {
	if layout.Version < 4 || layout.ChunkIndex == ChunkIndexBTreeV1 {
		node, err := ParseBTreeV1Node(r, layout.DataAddress, sb.OffsetSize, len(layout.ChunkSize), layout.ChunkSize)
		if err != nil {
			return nil, fmt.Errorf("failed to parse chunk B-tree: %w", err)
		}
		return node.CollectAllChunks(r, sb.OffsetSize, layout.ChunkSize)
	}
	if len(dims) == 0 || len(dims) >= len(layout.ChunkSize) {
		return nil, fmt.Errorf("chunked layout of %d dimensions for a dataset of %d", len(layout.ChunkSize)-1, len(dims))
	}
	if len(maxDims) != len(dims) {
		maxDims = dims
	}
	g, err := newChunkGrid(dims, maxDims, layout.ChunkSize[:len(dims)])
	if err != nil {
		return nil, err
	}
	if layout.DataAddress == undefAddr {
		return nil, nil // nothing written yet
	}
	elemSize := layout.ChunkSize[len(dims)]
	full, err := utils.ChunkBytes(layout.ChunkSize, len(dims), elemSize)
	if err != nil {
		return nil, err
	}
	c := &chunkReader{r: r, sb: sb, grid: g, full: full, seen: map[uint64]bool{}}
	switch layout.ChunkIndex {
	case ChunkIndexSingle:
		n := full
		if len(layout.IndexParams) > 0 {
			n = layout.SingleChunkBytes
		}
		return c.add(0, layout.DataAddress, n)
	case ChunkIndexImplicit:
		// every chunk, in order, full size, unfiltered
		total := g.count(g.max)
		if total > maxChunks {
			return nil, fmt.Errorf("%d chunks, more than the %d allowed", total, maxChunks)
		}
		for i := uint64(0); i < total; i++ {
			if _, err := c.add(i, layout.DataAddress+i*full, full); err != nil {
				return nil, err
			}
		}
		return c.out, nil
	case ChunkIndexFixedArray:
		return c.fixedArray(layout.DataAddress)
	case ChunkIndexExtArray:
		return c.extArray(layout.DataAddress, layout.IndexParams)
	case ChunkIndexBTreeV2:
		return c.btree2(layout.DataAddress, len(dims))
	}
	return nil, fmt.Errorf("chunk index type %d is not supported", layout.ChunkIndex)
}

// btree2 reads a version 2 B-tree chunk index (two or more unlimited
// dimensions): records of type 10 (address, scaled offsets) or 11
// (address, stored size, filter mask, scaled offsets).
func (c *chunkReader) btree2(addr uint64, ndims int) ([]ChunkEntry, error) {
	o := uint64(c.sb.OffsetSize)
	var filtered bool
	recs, err := readBTreeV2Records(c.r, addr, c.sb, func(typ uint8, recSize uint64) (uint64, uint64, error) {
		want := o + uint64(ndims)*8
		switch {
		case typ == 10 && recSize == want:
		case typ == 11 && recSize > want+4 && recSize <= want+4+8:
			filtered = true
		default:
			return 0, 0, fmt.Errorf("chunk index record type %d of %d bytes for %d dimensions", typ, recSize, ndims)
		}
		return 0, recSize, nil
	})
	if err != nil {
		return nil, fmt.Errorf("chunk index (version 2 B-tree): %w", err)
	}
	for _, rec := range recs {
		a := c.addr(rec)
		n := c.full
		p := o
		if filtered {
			w := uint64(len(rec)) - o - 4 - uint64(ndims)*8
			n = readUint64(rec[o:], int(w), binary.LittleEndian)
			p += w + 4
		}
		// the scaled offsets are the chunk's coordinates
		xy := make([]uint64, ndims+1)
		inside := true
		for d := range ndims {
			xy[d] = binary.LittleEndian.Uint64(rec[p+uint64(d)*8:])
			if xy[d] >= c.grid.cur[d] {
				inside = false
			}
		}
		if !inside || a == undefAddr || a == 0 {
			continue
		}
		if len(c.out) >= maxChunks || n > 1<<32-1 {
			return nil, fmt.Errorf("chunk index: more than %d chunks, or a chunk of %d bytes", maxChunks, n)
		}
		c.out = append(c.out, ChunkEntry{Key: ChunkKey{Scaled: xy, Nbytes: uint32(n)}, Address: a})
	}
	return c.out, nil
}

// chunkGrid maps an index's linear chunk number to chunk coordinates: row
// major over the chunks of the maximum dimensions, the unlimited
// dimension (if any) first ("swizzled", as H5Dearray.c orders them).
type chunkGrid struct {
	order []int    // dimension of each position, slowest first
	down  []uint64 // chunks per step of each position
	max   []uint64 // chunks along each position (maximum dimensions)
	cur   []uint64 // chunks along each dimension now (current dimensions)
}

func newChunkGrid(dims, maxDims, chunk []uint64) (*chunkGrid, error) {
	n := len(dims)
	g := &chunkGrid{order: make([]int, 0, n), down: make([]uint64, n), max: make([]uint64, n), cur: make([]uint64, n)}
	unlimited := -1
	for i, m := range maxDims {
		if m == undefAddr {
			unlimited = i
			break
		}
	}
	if unlimited >= 0 {
		g.order = append(g.order, unlimited)
	}
	for i := range dims {
		if i != unlimited {
			g.order = append(g.order, i)
		}
	}
	for i, d := range dims {
		g.cur[i] = (d + chunk[i] - 1) / chunk[i]
	}
	for k, d := range g.order {
		m := maxDims[d]
		if m == undefAddr || m < dims[d] {
			m = dims[d]
		}
		g.max[k] = (m + chunk[d] - 1) / chunk[d]
	}
	down := uint64(1)
	for k := n - 1; k >= 0; k-- {
		g.down[k] = down
		var err error
		if k > 0 || unlimited < 0 {
			if down, err = utils.SafeMultiply(down, max(g.max[k], 1)); err != nil {
				return nil, errors.New("chunk grid too large")
			}
		}
	}
	return g, nil
}

// count is the number of chunks of the given extents (saturating).
func (g *chunkGrid) count(ext []uint64) uint64 {
	n := uint64(1)
	for _, e := range ext {
		hi, lo := bits.Mul64(n, e)
		if hi != 0 {
			return 1 << 63
		}
		n = lo
	}
	return n
}

// coords are the chunk coordinates of linear chunk number i, false when
// they lie outside the dataset's current extent (such a chunk is not
// read: it holds nothing of the data).
func (g *chunkGrid) coords(i uint64) ([]uint64, bool) {
	out := make([]uint64, len(g.order)+1)
	for k, d := range g.order {
		out[d] = i / g.down[k]
		i %= g.down[k]
		if out[d] >= g.cur[d] {
			return nil, false
		}
	}
	return out, true
}

type chunkReader struct {
	r    io.ReaderAt
	sb   *Superblock
	grid *chunkGrid
	full uint64 // a chunk's decoded size
	seen map[uint64]bool
	out  []ChunkEntry
}

// add records chunk i stored at addr in n bytes.
func (c *chunkReader) add(i, addr, n uint64) ([]ChunkEntry, error) {
	if addr == undefAddr || addr == 0 {
		return c.out, nil
	}
	xy, ok := c.grid.coords(i)
	if !ok {
		return c.out, nil
	}
	if len(c.out) >= maxChunks {
		return nil, fmt.Errorf("more than %d chunks", maxChunks)
	}
	if n > 1<<32-1 {
		return nil, fmt.Errorf("chunk %d of %d bytes", i, n)
	}
	c.out = append(c.out, ChunkEntry{Key: ChunkKey{Scaled: xy, Nbytes: uint32(n)}, Address: addr})
	return c.out, nil
}

// block reads n bytes at addr, a block of the index seen for the first
// time, and checks its signature.
func (c *chunkReader) block(addr, n uint64, sig string) ([]byte, error) {
	if c.seen[addr] {
		return nil, fmt.Errorf("%s block at 0x%x reached twice (corrupt chunk index)", sig, addr)
	}
	c.seen[addr] = true
	if err := utils.CheckStored(c.r, addr, n, sig+" block"); err != nil {
		return nil, err
	}
	b := make([]byte, n)
	//nolint:gosec // G115: checked against the file's size above
	if _, err := c.r.ReadAt(b, int64(addr)); err != nil {
		return nil, fmt.Errorf("%s block at 0x%x: %w", sig, addr, err)
	}
	if string(b[:4]) != sig {
		return nil, fmt.Errorf("%s block at 0x%x: signature %q", sig, addr, b[:4])
	}
	return b, nil
}

func (c *chunkReader) addr(b []byte) uint64 {
	return readUint64(b, int(c.sb.OffsetSize), binary.LittleEndian)
}

// element decodes one index element: the chunk's address, and for
// filtered chunks (client 1) its stored size and filter mask.
func (c *chunkReader) element(i uint64, b []byte, filtered bool) error {
	a := c.addr(b)
	n := c.full
	if filtered {
		w := len(b) - int(c.sb.OffsetSize) - 4
		n = readUint64(b[c.sb.OffsetSize:], w, binary.LittleEndian)
	}
	_, err := c.add(i, a, n)
	return err
}

// elementSize checks an index's client and element size.
func (c *chunkReader) elementSize(client, size uint8) (bool, error) {
	o := int(c.sb.OffsetSize)
	switch {
	case client == 0 && int(size) == o:
		return false, nil
	case client == 1 && int(size) > o+4 && int(size) <= o+4+8:
		return true, nil
	}
	return false, fmt.Errorf("chunk index of client %d with %d-byte elements", client, size)
}

// fixedArray reads a fixed array (H5FA): header FAHD, data block FADB,
// paged when it holds more than 2^page bits elements.
func (c *chunkReader) fixedArray(addr uint64) ([]ChunkEntry, error) {
	o, l := uint64(c.sb.OffsetSize), uint64(c.sb.LengthSize)
	h, err := c.block(addr, 4+1+1+1+1+l+o+4, "FAHD")
	if err != nil {
		return nil, err
	}
	filtered, err := c.elementSize(h[5], h[6])
	if err != nil {
		return nil, err
	}
	esize, pageBits := uint64(h[6]), h[7]
	n := readUint64(h[8:], int(l), binary.LittleEndian)
	if n > maxChunks || pageBits > 32 {
		return nil, fmt.Errorf("fixed array of %d elements (page bits %d)", n, pageBits)
	}
	dblk := readUint64(h[8+l:], int(o), binary.LittleEndian)
	if dblk == undefAddr {
		return nil, nil
	}
	prefix := 4 + 1 + 1 + o
	page := uint64(1) << pageBits
	if n <= page {
		b, err := c.block(dblk, prefix+n*esize+4, "FADB")
		if err != nil {
			return nil, err
		}
		for i := range n {
			if err := c.element(i, b[prefix+i*esize:prefix+(i+1)*esize], filtered); err != nil {
				return nil, err
			}
		}
		return c.out, nil
	}
	npages := (n + page - 1) / page
	mapBytes := (npages + 7) / 8
	b, err := c.block(dblk, prefix+mapBytes+4, "FADB")
	if err != nil {
		return nil, err
	}
	bitmap := b[prefix : prefix+mapBytes]
	at := dblk + prefix + mapBytes + 4
	for pg := range npages {
		cnt := min(page, n-pg*page)
		if bitmap[pg/8]&(0x80>>(pg%8)) != 0 {
			if err := c.page(at, pg*page, cnt, esize, filtered); err != nil {
				return nil, err
			}
		}
		at += cnt*esize + 4
	}
	return c.out, nil
}

// page reads a data block page: cnt elements and a checksum, the first
// element number first.
func (c *chunkReader) page(at, first, cnt, esize uint64, filtered bool) error {
	n := cnt*esize + 4
	if err := utils.CheckStored(c.r, at, n, "chunk index page"); err != nil {
		return err
	}
	b := make([]byte, n)
	//nolint:gosec // G115: checked against the file's size above
	if _, err := c.r.ReadAt(b, int64(at)); err != nil {
		return err
	}
	for i := range cnt {
		if err := c.element(first+i, b[i*esize:(i+1)*esize], filtered); err != nil {
			return err
		}
	}
	return nil
}

// extArray reads an extensible array (H5EA): header EAHD, index block
// EAIB holding the first elements, the first data blocks' addresses and
// the super blocks' (EASB), data blocks EADB, paged when large; the
// sizes follow H5EA__hdr_init.
func (c *chunkReader) extArray(addr uint64, params []byte) ([]ChunkEntry, error) {
	o, l := uint64(c.sb.OffsetSize), uint64(c.sb.LengthSize)
	h, err := c.block(addr, 4+1+1+1+5+6*l+o+4, "EAHD")
	if err != nil {
		return nil, err
	}
	filtered, err := c.elementSize(h[5], h[6])
	if err != nil {
		return nil, err
	}
	esize := uint64(h[6])
	maxBits, idxElems, dblkMin, sblkMinPtrs, pageBits := h[7], uint64(h[8]), uint64(h[9]), uint64(h[10]), h[11]
	if maxBits == 0 || maxBits > 64 || dblkMin == 0 || dblkMin&(dblkMin-1) != 0 || sblkMinPtrs == 0 ||
		sblkMinPtrs&(sblkMinPtrs-1) != 0 || pageBits > 32 || uint64(bits.Len64(dblkMin)-1) > uint64(maxBits) {
		return nil, errors.New("extensible array header: invalid parameters")
	}
	maxIndex := readUint64(h[12+4*l:], int(l), binary.LittleEndian) // max index set
	if maxIndex > maxChunks {
		return nil, fmt.Errorf("extensible array of %d elements", maxIndex)
	}
	iblkAddr := readUint64(h[12+6*l:], int(o), binary.LittleEndian)
	if iblkAddr == undefAddr {
		return nil, nil
	}
	// super block u: 2^(u/2) data blocks of 2^((u+1)/2) × dblkMin elements
	nsblks := 1 + int(maxBits) - (bits.Len64(dblkMin) - 1)
	iblkSblks := 2 * (bits.Len64(sblkMinPtrs) - 1)
	ndblkAddrs := 2 * (sblkMinPtrs - 1)
	if iblkSblks > nsblks {
		return nil, errors.New("extensible array header: invalid parameters")
	}
	nsblkAddrs := uint64(nsblks - iblkSblks)
	ib, err := c.block(iblkAddr, 4+1+1+o+idxElems*esize+(ndblkAddrs+nsblkAddrs)*o+4, "EAIB")
	if err != nil {
		return nil, err
	}
	p := 6 + o
	for i := range idxElems {
		if i < maxIndex {
			if err := c.element(i, ib[p+i*esize:p+(i+1)*esize], filtered); err != nil {
				return nil, err
			}
		}
	}
	p += idxElems * esize
	dblkAddrs, sblkAddrs := ib[p:p+ndblkAddrs*o], ib[p+ndblkAddrs*o:p+(ndblkAddrs+nsblkAddrs)*o]
	offBytes := (uint64(maxBits) + 7) / 8
	page := uint64(1) << pageBits
	start, startDblk := idxElems, uint64(0)
	for u := 0; u < nsblks && start < maxIndex; u++ {
		ndblks := uint64(1) << (u / 2)
		nelems := (uint64(1) << ((u + 1) / 2)) * dblkMin
		paged := nelems > page
		npages := (nelems + page - 1) / page
		var addrs []byte
		var bitmaps []byte
		if u < iblkSblks {
			if paged {
				// the page bitmaps live in super blocks
				return nil, errors.New("extensible array: a paged data block in the index block")
			}
			addrs = dblkAddrs[startDblk*o : (startDblk+ndblks)*o]
		} else {
			sa := c.addr(sblkAddrs[uint64(u-iblkSblks)*o:])
			if sa == undefAddr {
				start += ndblks * nelems
				startDblk += ndblks
				continue
			}
			mapBytes := uint64(0)
			if paged {
				mapBytes = ndblks * ((npages + 7) / 8)
			}
			sb, err := c.block(sa, 4+1+1+o+offBytes+mapBytes+ndblks*o+4, "EASB")
			if err != nil {
				return nil, err
			}
			q := 6 + o + offBytes
			bitmaps = sb[q : q+mapBytes]
			addrs = sb[q+mapBytes : q+mapBytes+ndblks*o]
		}
		for d := range ndblks {
			first := start + d*nelems
			if first >= maxIndex {
				break
			}
			da := c.addr(addrs[d*o:])
			if da == undefAddr {
				continue
			}
			prefix := 4 + 1 + 1 + o + offBytes
			if !paged {
				b, err := c.block(da, prefix+nelems*esize+4, "EADB")
				if err != nil {
					return nil, err
				}
				for i := range min(nelems, maxIndex-first) {
					if err := c.element(first+i, b[prefix+i*esize:prefix+(i+1)*esize], filtered); err != nil {
						return nil, err
					}
				}
				continue
			}
			if _, err := c.block(da, prefix+4, "EADB"); err != nil {
				return nil, err
			}
			bm := bitmaps[d*((npages+7)/8):]
			at := da + prefix + 4
			for pg := range npages {
				cnt := min(page, nelems-pg*page)
				if bm[pg/8]&(0x80>>(pg%8)) != 0 && first+pg*page < maxIndex {
					if err := c.page(at, first+pg*page, cnt, esize, filtered); err != nil {
						return nil, err
					}
				}
				at += cnt*esize + 4
			}
		}
		start += ndblks * nelems
		startDblk += ndblks
	}
	return c.out, nil
}
