package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newVersionCmd) }

// Release builds stamp these at link time (tools/release, docs/release.md):
//
//	-X main.buildVersion=0.1.0 -X main.buildCommit=<sha> -X main.buildTime=<RFC 3339>
//
// A plain go build leaves them empty and the module's build information
// (go install ...@v0.1.0, the VCS stamp of a clone) is used instead.
var buildVersion, buildCommit, buildTime string

// versionInfo is what bddl version prints.
type versionInfo struct {
	Record   string `json:"record"` // "version", as every record says what it is
	Version  string `json:"version"`
	Commit   string `json:"commit,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// currentVersion describes this build.
func currentVersion() versionInfo {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = &debug.BuildInfo{GoVersion: runtime.Version()}
	}
	return versionOf(info, buildVersion, buildCommit, buildTime, runtime.GOOS+"/"+runtime.GOARCH)
}

// versionOf merges the link-time stamp (which wins) with the build
// information.
func versionOf(info *debug.BuildInfo, stampVersion, stampCommit, stampTime, platform string) versionInfo {
	v := versionInfo{Record: "version", Version: info.Main.Version, Go: info.GoVersion, Platform: platform}
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
func (v versionInfo) String() string {
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

// version is the one-line description of this build.
func version() string { return currentVersion().String() }

func newVersionCmd(g *globalOptions) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "version [--format text|json]",
		Short: "Print the version, commit, Go version and platform of this build",
		Long: `Print what this bddl is: its version, the commit it was built from and that
commit's time, the Go version and the platform (as bddl --version, on one line).
A release build is stamped with them (docs/release.md); a plain go build
reports "(devel)" and the commit of the clone when Go recorded it.`,
		Example: `  bddl version
  bddl version --format json | jq -r .version`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			v := currentVersion()
			if format == "json" {
				return json.NewEncoder(g.out).Encode(v)
			}
			_, err := fmt.Fprintf(g.out, "bddl %s\n", v)
			return err
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json (one JSON object)")
	return cmd
}
