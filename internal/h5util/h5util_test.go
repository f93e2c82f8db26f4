package h5util

import (
	"slices"
	"testing"
)

func TestArrayDims(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, info string
		want       []uint64
		ok         bool
	}{
		{"2D with x", "Dataset: float64, 2D array [40 x 7], contiguous", []uint64{40, 7}, true},
		{"3D with spaces", "Dataset: int16, 3D array [36 8 3], contiguous", []uint64{36, 8, 3}, true},
		{"commas", "array [5, 2]", []uint64{5, 2}, true},
		{"scalar", "Dataset: float64, scalar, contiguous", nil, false},
		{"unclosed", "array [5 x 2", nil, false},
		{"not a number", "array [5 x y]", nil, false},
		{"empty", "array []", nil, false},
	} {
		got, ok := ArrayDims(tc.info)
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("%s: ArrayDims(%q) = %v, %v; want %v, %v", tc.name, tc.info, got, ok, tc.want, tc.ok)
		}
	}
}
