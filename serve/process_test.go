package serve

import (
	"strings"
	"testing"
	"time"
)

func TestCheckLimits(t *testing.T) {
	t.Parallel()
	ok := Options{MaxLine: DefaultMaxLine, MaxSessions: DefaultMaxSessions, MaxQueued: DefaultMaxQueued, MaxResponse: DefaultMaxResponse, Spin: DefaultSpin}
	for _, tc := range []struct {
		name string
		edit func(*Options)
		want string // "" for none
	}{
		{"defaults", func(*Options) {}, ""},
		{"short line", func(o *Options) { o.MaxLine = 100 }, "--max-line 100: at least 1024 bytes"},
		{"no session", func(o *Options) { o.MaxSessions = 0 }, "--max-sessions 0: at least 1"},
		{"queue under a line", func(o *Options) { o.MaxQueued = int64(o.MaxLine) - 1 }, "--max-queued"},
		{"short response", func(o *Options) { o.MaxResponse = 10 }, "--max-response 10: at least 1024 bytes"},
		{"long spin", func(o *Options) { o.Spin = 2 * time.Second }, "--spin 2s: between 0 and 1s"},
		{"negative spin", func(o *Options) { o.Spin = -1 }, "--spin"},
	} {
		o := ok
		tc.edit(&o)
		err := o.CheckLimits()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: CheckLimits = %v, want nil", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: CheckLimits = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestWatchParentStops: a watch of a live parent does nothing and stops
// when told; no parent (pid 1) is no watch.
func TestWatchParentStops(t *testing.T) {
	t.Parallel()
	watchParent(1, time.Millisecond)()
	stop := watchParent(2_000_000_000, time.Hour) // never ticks
	stop()
}
