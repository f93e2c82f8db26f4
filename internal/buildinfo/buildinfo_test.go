package buildinfo

import (
	"runtime/debug"
	"testing"
)

// TestVersionOf: the link-time stamp wins over the build information,
// which is used when there is none.
func TestVersionOf(t *testing.T) {
	t.Parallel()
	vcs := &debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}}
	bare := &debug.BuildInfo{GoVersion: "go1.26"}
	tests := []struct {
		name                string
		info                *debug.BuildInfo
		version, commit, at string
		want                string
	}{
		{"build info", vcs, "", "", "", "v1.2.3 (revision 0123456789ab, 2026-01-02T03:04:05Z, modified, go1.26, linux/arm64)"},
		{"stamped", vcs, "0.4.0", "fedcba9876543210fedc", "2026-03-04T05:06:07Z", "0.4.0 (revision fedcba987654, 2026-03-04T05:06:07Z, go1.26, linux/arm64)"},
		{"devel", bare, "", "", "", "(devel) (revision unknown: built without VCS information, go1.26, linux/arm64)"},
		{"version only", bare, "0.4.0", "", "", "0.4.0 (revision unknown: built without VCS information, go1.26, linux/arm64)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Of(tt.info, tt.version, tt.commit, tt.at, "linux/arm64").String(); got != tt.want {
				t.Errorf("Of = %q, want %q", got, tt.want)
			}
		})
	}
}
