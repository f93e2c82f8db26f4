// Package buildinfo describes a bddl build: its version, commit and
// commit time (stamped at link time by release builds, else read from
// the module's build information), the Go version and the platform, as
// bddl version, --version and the serve handshake print it.
//
// buildinfo is a ground utility: it imports the standard library only,
// and every package may import it.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Info is what bddl version prints (bddl schema version).
type Info struct {
	Record   string `json:"record"` // "version", as every record says what it is
	Version  string `json:"version"`
	Commit   string `json:"commit,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// Current describes this build, with the link-time stamp given.
func Current(stampVersion, stampCommit, stampTime string) Info {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = &debug.BuildInfo{GoVersion: runtime.Version()}
	}
	return Of(info, stampVersion, stampCommit, stampTime, runtime.GOOS+"/"+runtime.GOARCH)
}

// Of merges the link-time stamp (which wins) with the build
// information.
func Of(info *debug.BuildInfo, stampVersion, stampCommit, stampTime, platform string) Info {
	v := Info{Record: "version", Version: info.Main.Version, Go: info.GoVersion, Platform: platform}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	if stampVersion != "" {
		v.Version = stampVersion
	}
	if stampCommit != "" {
		v.Commit, v.Time, v.Modified = stampCommit, stampTime, false
	}
	if v.Version == "" {
		v.Version = "(devel)"
	}
	return v
}

// String is the one line of --version and of the serve handshake: the
// version first (the Python client compares it with its own), then the
// commit, its time, the Go version and the platform.
func (v Info) String() string {
	var extra []string
	if v.Commit != "" {
		c := v.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		extra = append(extra, "revision "+c)
	} else {
		extra = append(extra, "revision unknown: built without VCS information")
	}
	if v.Time != "" {
		extra = append(extra, v.Time)
	}
	if v.Modified {
		extra = append(extra, "modified")
	}
	extra = append(extra, v.Go, v.Platform)
	return fmt.Sprintf("%s (%s)", v.Version, strings.Join(extra, ", "))
}
