package core

import (
	"io"
)

// ReadDenseHeapObjects walks a v2 B-tree whose leaf records reference managed
// objects in a fractal heap (the layout used by both dense attribute storage,
// btree record type 8, and dense link storage, btree record type 5) and
// returns the raw heap object bytes in btree leaf order.
//
// The two record types share the same on-disk shape: 4 bytes of name hash
// followed by a 7-byte heap ID. Differentiation between attribute and link
// content happens at the heap-object decoding step (the caller passes the
// bytes to ParseAttributeMessage or structures.ParseLinkMessage accordingly).
//
// Current limitations (sufficient for the MET Norway NORDRAD layout and any
// group / attribute set ≲30 records):
//
//   - Only depth=0 btrees (root is a leaf). Deeper trees would require
//     walking internal-node "BTIN" pointers and aren't on the critical path.
//   - Only managed heap IDs (type bits 0 in heap-ID byte 0). Tiny/huge IDs
//     aren't used for link/attribute records at the sizes we encounter.
func ReadDenseHeapObjects(r io.ReaderAt, btreeAddr, heapAddr uint64, sb *Superblock) ([][]byte, error) {
	// bddl patch: any depth of index, any heap (dense_read.go)
	return readDense(r, btreeAddr, heapAddr, sb)
}
