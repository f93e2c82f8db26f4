package config

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func testCommand() (*cobra.Command, *cobra.Command) {
	root := &cobra.Command{Use: "bddl"}
	check := &cobra.Command{Use: "check", Run: func(*cobra.Command, []string) {}}
	check.Flags().Int("hold", 1, "")
	check.Flags().String("activity", "", "")
	check.Flags().StringArray("episode", nil, "")
	check.Flags().String("activities", "", "")
	root.AddCommand(check)
	return root, check
}

// TestApplyAndProblems: [defaults] and the command's table set unset
// flags; a key no flag takes is an error with a did-you-mean, and
// Problems finds it for bddl config without running the command.
func TestApplyAndProblems(t *testing.T) {
	t.Parallel()
	root, check := testCommand()
	p := &Project{Path: "/p/bddl.toml", Activities: "/defs", Tables: map[string]map[string]any{
		"": {"jobs": int64(2)}, "check": {"hold": int64(3)}}}
	set, err := p.Apply(check)
	if err != nil || !slices.Equal(set, []string{"hold", "activities"}) && !slices.Equal(set, []string{"activities", "hold"}) {
		t.Fatalf("Apply = %v, %v", set, err)
	}
	if v, _ := check.Flags().GetInt("hold"); v != 3 {
		t.Errorf("hold = %d, want 3", v)
	}
	if bad := p.Problems(root); len(bad) != 1 || !strings.Contains(bad["\x00jobs"], "no command has a flag --jobs") {
		t.Errorf("Problems = %v", bad)
	}
	_, check = testCommand()
	p.Tables["check"] = map[string]any{"hodl": int64(3)}
	if _, err := p.Apply(check); err == nil || !strings.Contains(err.Error(), "did you mean hold?") {
		t.Errorf("Apply(hodl) error = %v", err)
	}
}

// TestInputPaths: path flags' values, then arguments; "-" left out.
func TestInputPaths(t *testing.T) {
	t.Parallel()
	_, check := testCommand()
	dir := t.TempDir()
	_ = check.Flags().Set("activity", filepath.Join(dir, "a.bddl"))
	_ = check.Flags().Set("episode", "-")
	_ = check.Flags().Set("episode", dir)
	got := InputPaths(check, []string{"x.jsonl"})
	if want := []string{filepath.Join(dir, "a.bddl"), dir, "x.jsonl"}; !slices.Equal(got, want) {
		t.Errorf("InputPaths = %v, want %v", got, want)
	}
}
