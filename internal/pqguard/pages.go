package pqguard

import (
	"bytes"
	"compress/gzip"
	"io"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// Parquet's compression codecs (format.CompressionCodec).
const (
	codecNone   = 0
	codecSnappy = 1
	codecGzip   = 2
	codecBrotli = 4
	codecZstd   = 6
	codecLz4Raw = 7
)

// pager walks the page headers of column chunks.
type pager struct {
	r    io.ReaderAt
	lim  Limits
	hdr  []byte
	body []byte
	zstd *zstd.Decoder
}

// chunk checks every page of c.
func (p *pager) chunk(c chunk) error {
	pos, end := c.start, c.start+c.size
	for pos < end {
		h, n, err := p.header(pos, end)
		if err != nil {
			return err
		}
		pos += int64(n)
		switch {
		case h.compressed < 0 || h.uncompressed < 0 || h.values < 0:
			return errorf("a page at byte %d declares a negative size", pos)
		case h.compressed > end-pos:
			return errorf("a page at byte %d declares %d bytes, past its column chunk", pos, h.compressed)
		case h.compressed > int64(p.lim.PageBytes) || h.uncompressed > int64(p.lim.PageBytes):
			return errorf("a page at byte %d declares %d bytes (%d compressed; limit %d)", pos, h.uncompressed, h.compressed, p.lim.PageBytes)
		case h.values > int64(p.lim.PageValues):
			return errorf("a page at byte %d declares %d values (limit %d)", pos, h.values, p.lim.PageValues)
		case h.levels > h.compressed:
			return errorf("a page at byte %d declares %d bytes of levels in %d", pos, h.levels, h.compressed)
		}
		if c.codec != codecNone && !h.notCompressed && h.compressed > 0 {
			if err := p.decoded(c.codec, pos+h.levels, h.compressed-h.levels, h.uncompressed); err != nil {
				return err
			}
		}
		pos += h.compressed
	}
	return nil
}

// header reads the page header at pos, in a window grown until it fits.
func (p *pager) header(pos, end int64) (page, int, error) {
	for win := int64(4 << 10); ; win *= 4 {
		n := min(win, end-pos, int64(p.lim.PageHeader))
		if cap(p.hdr) < int(n) {
			p.hdr = make([]byte, n)
		}
		b := p.hdr[:n]
		if _, err := p.r.ReadAt(b, pos); err != nil && err != io.EOF {
			return page{}, 0, err
		}
		w := &walker{b: b, maxObj: p.lim.Objects}
		h, err := parsePage(w)
		if err == nil {
			return h, w.off, nil
		}
		if err != errShort {
			if _, ok := err.(*Error); !ok {
				err = errorf("corrupt page header at byte %d: %v", pos, err)
			}
			return page{}, 0, err
		}
		if n == end-pos || n == int64(p.lim.PageHeader) {
			return page{}, 0, errorf("the page header at byte %d is cut short or longer than %d bytes", pos, n)
		}
	}
}

// decoded checks that the compressed bytes at pos decode to at most want
// bytes: a page declaring a few KiB may not expand to gigabytes when
// parquet-go decompresses it without a limit.
func (p *pager) decoded(codec, pos, size, want int64) error {
	if cap(p.body) < int(size) {
		p.body = make([]byte, size)
	}
	src := p.body[:size]
	if _, err := p.r.ReadAt(src, pos); err != nil && err != io.EOF {
		return err
	}
	var n int64
	var err error
	switch codec {
	case codecSnappy:
		var m int
		m, err = snappy.DecodedLen(src)
		n = int64(m)
	case codecLz4Raw:
		// parquet-go doubles its buffer for as long as a block fails to
		// decode: it must decode within its declared size.
		var m int
		m, err = lz4.UncompressBlock(src, make([]byte, want))
		n = int64(m)
	case codecGzip:
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(bytes.NewReader(src)); err == nil {
			n, err = io.Copy(io.Discard, io.LimitReader(zr, want+1))
		}
	case codecBrotli:
		n, err = io.Copy(io.Discard, io.LimitReader(brotli.NewReader(bytes.NewReader(src)), want+1))
	case codecZstd:
		if p.zstd == nil {
			if p.zstd, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(uint64(p.lim.PageBytes)), zstd.WithDecoderLowmem(true)); err != nil {
				return err
			}
		}
		if err = p.zstd.Reset(bytes.NewReader(src)); err == nil {
			n, err = io.Copy(io.Discard, io.LimitReader(p.zstd, want+1))
		}
	default:
		return nil // parquet-go refuses the codec itself
	}
	if err != nil {
		return errorf("a compressed page at byte %d does not decode: %v", pos, err)
	}
	if n > want {
		return errorf("a compressed page at byte %d decodes to more than its declared %d bytes", pos, want)
	}
	return nil
}
