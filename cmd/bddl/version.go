package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// version describes this build for --version: the module version and,
// when the build recorded them, the VCS revision, its time and whether
// the tree was modified.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (no build information)"
	}
	return versionOf(info)
}

func versionOf(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, at string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	var extra []string
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		extra = append(extra, "revision "+rev)
	} else {
		extra = append(extra, "revision unknown: built without VCS information")
	}
	if at != "" {
		extra = append(extra, at)
	}
	if modified {
		extra = append(extra, "modified")
	}
	return fmt.Sprintf("%s (%s, %s)", v, strings.Join(extra, ", "), info.GoVersion)
}
