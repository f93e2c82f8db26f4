package batch

import (
	"slices"
	"testing"
)

// TestActivityNames: the embedded examples by prefix, sorted, once each.
func TestActivityNames(t *testing.T) {
	t.Parallel()
	all := ActivityNames("", "")
	if len(all) == 0 || !slices.IsSorted(all) || len(slices.Compact(slices.Clone(all))) != len(all) {
		t.Fatalf("ActivityNames = %v", all)
	}
	some := ActivityNames("", all[0][:3])
	if len(some) == 0 || len(some) > len(all) || some[0] != all[0] {
		t.Errorf("ActivityNames(prefix %q) = %v", all[0][:3], some)
	}
}
