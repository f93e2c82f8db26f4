package recording

import "testing"

func TestErrorText(t *testing.T) {
	for _, tc := range []struct {
		file, where string
		row         int
		msg, want   string
	}{
		{"a.h5", "/obs/pose", 3, "bad", "a.h5: /obs/pose: row 3: bad"},
		{"a.h5", "", 0, "bad", "a.h5: row 0: bad"},
		{"a.h5", "/obs", -1, "bad", "a.h5: /obs: bad"},
		{"a.h5", "", -1, "bad", "a.h5: bad"},
	} {
		if got := ErrorText(tc.file, tc.where, tc.row, tc.msg); got != tc.want {
			t.Errorf("ErrorText(%q, %q, %d, %q) = %q, want %q", tc.file, tc.where, tc.row, tc.msg, got, tc.want)
		}
	}
}
