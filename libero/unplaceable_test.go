package libero

import "testing"

// TestUnplaceableError: the message names the region only when there is
// one (an object with no placement has none).
func TestUnplaceableError(t *testing.T) {
	for _, tc := range []struct {
		u    Unplaceable
		want string
	}{
		{Unplaceable{Object: "bowl_1", Reason: "no placement in :init"}, "cannot place bowl_1: no placement in :init"},
		{Unplaceable{Object: "bowl_1", Region: "table_bowl_region", Blockers: []string{"plate_1"}, Tries: 5000},
			"cannot place bowl_1 in table_bowl_region after 5000 tries: its footprint always overlaps plate_1"},
		{Unplaceable{Object: "bowl_1", Region: "table_bowl_region", Reason: "the region has no area"},
			"cannot place bowl_1 in table_bowl_region: the region has no area"},
	} {
		if got := tc.u.Error(); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.u, got, tc.want)
		}
	}
}
