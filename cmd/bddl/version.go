package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/internal/buildinfo"
)

func init() { subcommands = append(subcommands, newVersionCmd) }

// Release builds stamp these at link time (tools/release, docs/release.md):
//
//	-X main.buildVersion=0.1.0 -X main.buildCommit=<sha> -X main.buildTime=<RFC 3339>
//
// A plain go build leaves them empty and the module's build information
// (go install ...@v0.1.0, the VCS stamp of a clone) is used instead.
var buildVersion, buildCommit, buildTime string

// currentVersion describes this build (internal/buildinfo).
func currentVersion() buildinfo.Info { return buildinfo.Current(buildVersion, buildCommit, buildTime) }

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
