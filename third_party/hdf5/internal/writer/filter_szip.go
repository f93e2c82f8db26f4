package writer

import (
	"errors"
)

// SZIPFilter implements SZIP compression (FilterID = 4).
// SZIP uses extended Golomb-Rice coding as defined in CCSDS 121.0-B-3 standard.
// It was designed by NASA for satellite imagery compression and is widely used
// in scientific data compression.
//
// SZIP is implemented by libaec (Adaptive Entropy Coding) library in C.
// Patents on the SZIP algorithm expired in 2017, making it freely usable.
//
// However, no pure Go implementation exists as of 2026.
// The algorithm is complex and requires significant effort to implement:
//   - Adaptive entropy coding (extended Golomb-Rice)
//   - Preprocessing options (NN predictor, EC option encoder)
//   - Block-based compression with configurable parameters
//
// For HDF5 files requiring SZIP, users should:
//  1. Use HDF5 C library with libaec
//  2. Use h5py (Python) which links to C library
//  3. Re-compress files using GZIP (filter ID 1) for pure Go compatibility
//
// Reference: https://github.com/MathisRosenhauer/libaec
// CCSDS Standard: https://public.ccsds.org/Pubs/121x0b3.pdf
// HDF Group: https://docs.hdfgroup.org/hdf5/latest/group___s_z_i_p.html
type SZIPFilter struct {
	optionMask     uint32 // SZIP option mask (NN, EC, LSB, MSB, RAW)
	pixelsPerBlock uint32 // Pixels per block (even number, typically 8-32)
	bitsPerPixel   uint32 // Bits per pixel (1-32)
	pixelsPerScan  uint32 // Pixels per scanline (for 2D data)
}

// NewSZIPFilter creates an SZIP compression filter.
// Parameters match the SZIP specification:
//   - optionMask: Compression options (NN=32, EC=4, LSB=1, MSB=2, RAW=128)
//   - pixelsPerBlock: Number of pixels per block (must be even, typically 8-32)
//   - bitsPerPixel: Bits per pixel (1-32)
//   - pixelsPerScan: Pixels per scanline for 2D data (0 for 1D)
//
// Common configurations:
//   - NN predictor with EC encoder: optionMask = 36 (32 + 4)
//   - RAW mode (no preprocessing): optionMask = 128
func NewSZIPFilter(optionMask, pixelsPerBlock, bitsPerPixel, pixelsPerScan uint32) *SZIPFilter {
	return &SZIPFilter{
		optionMask:     optionMask,
		pixelsPerBlock: pixelsPerBlock,
		bitsPerPixel:   bitsPerPixel,
		pixelsPerScan:  pixelsPerScan,
	}
}

// ID returns the HDF5 filter identifier for SZIP.
func (f *SZIPFilter) ID() FilterID {
	return FilterSZIP
}

// Name returns the HDF5 filter name.
func (f *SZIPFilter) Name() string {
	return "szip"
}

// Apply compresses data using SZIP algorithm.
// Returns compressed data suitable for storage.
//
// NOTE: SZIP compression requires libaec library (C implementation).
// No pure Go implementation exists as of 2026.
// This is a stub that returns "not implemented" error.
//
// For SZIP compression, consider:
//  1. Using CGo with libaec
//  2. Using HDF5 C library
//  3. Using alternative compression (GZIP filter ID 1)
func (f *SZIPFilter) Apply(_ []byte) ([]byte, error) {
	// TODO: Implement SZIP compression when pure Go solution available.
	// Options:
	//   1. Port libaec to pure Go (~3000-4000 lines, complex algorithm)
	//   2. Use CGo wrapper around libaec (adds CGo dependency)
	//   3. Wait for community implementation
	//
	// Algorithm complexity:
	//   - Extended Golomb-Rice entropy coding (CCSDS 121.0-B-3)
	//   - Adaptive parameter selection
	//   - Multiple preprocessing options (NN, EC)
	//   - Block-based compression with configurable sizes
	return nil, errors.New("szip compression not implemented yet (requires libaec library); " +
		"SZIP uses extended Golomb-Rice coding (CCSDS 121.0-B-3 standard); " +
		"consider using GZIP compression (filter ID 1) as an alternative")
}

// Remove decompresses SZIP-compressed data.
// Returns the original uncompressed data.
//
// NOTE: SZIP decompression requires libaec library (C implementation).
// No pure Go implementation exists as of 2026.
// This is a stub that returns "not implemented" error.
func (f *SZIPFilter) Remove(_ []byte) ([]byte, error) {
	// Decompression stub - delegates to core/filterpipeline.go applySZIP()
	// which provides detailed error message.
	return nil, errors.New("szip decompression not implemented yet (requires libaec library); " +
		"SZIP uses extended Golomb-Rice coding (CCSDS 121.0-B-3 standard); " +
		"to read SZIP-compressed datasets, use HDF5 C library or h5py")
}

// Encode returns the filter parameters for the Pipeline message.
//
// For SZIP in HDF5, the client data contains:
//   - cd_values[0]: Bits per pixel (1-32)
//   - cd_values[1]: Coding method (NN=32, EC=4, LSB=1, MSB=2, RAW=128)
//   - cd_values[2]: Pixels per block (even number, 8-32)
//   - cd_values[3]: Pixels per scanline (0 for 1D data)
//
// Reference: https://github.com/HDFGroup/hdf5/blob/develop/src/H5Zszip.c
func (f *SZIPFilter) Encode() (flags uint16, cdValues []uint32) {
	return 0, []uint32{
		f.bitsPerPixel,
		f.optionMask,
		f.pixelsPerBlock,
		f.pixelsPerScan,
	}
}
