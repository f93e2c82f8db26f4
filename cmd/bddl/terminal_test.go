package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileName carries what item 13 found reaching the terminal: an OSC
// sequence setting the window title, CR LF forging a line, a C1 CSI.
const hostileName = "x\x1b]0;pwned\x07\r\nFAKE LINE\u009b2J"

// TestNoControlBytesReachTheTerminal walks the CLI's outputs with hostile
// names (an activity in an episode header, file names met in walks, an
// object name) and checks that no control byte other than newline and
// tab is printed, and that no forged line appears (item 13).
func TestNoControlBytesReachTheTerminal(t *testing.T) {
	dir := t.TempDir()
	eps := filepath.Join(dir, "eps")
	src := string(readFile(t, examplePath("tidying_the_living_room", "poses.jsonl")))
	header := `"activity":"tidying_the_living_room"`
	hostileJSON := `"activity":"x\u001b]0;pwned\u0007\r\nFAKE LINE\u009b2J"`
	writeFile(t, filepath.Join(eps, "a.jsonl"), []byte(strings.Replace(src, header, hostileJSON, 1)))
	writeFile(t, filepath.Join(eps, "b"+hostileName+".jsonl"), []byte(src))
	writeFile(t, filepath.Join(eps, "c.jsonl"), []byte(strings.Replace(src, `"blanket.n.01_1"`, `"blanket.n.01_1\u001b[2J\r\nFAKE LINE"`, 1)))
	defs := filepath.Join(dir, "defs")
	def := string(readFile(t, filepath.Join(examples, "tidying_the_living_room", "problem0.bddl")))
	writeFile(t, filepath.Join(defs, "d"+hostileName+".bddl"), []byte(def))
	writeFile(t, filepath.Join(defs, "e.bddl"), []byte(strings.Replace(def, "tidying_the_living_room", "tidying\x1b]0;t\x07\r\nFAKE LINE", 1)))
	fifo := filepath.Join(eps, "f"+hostileName+".jsonl")
	_ = mkfifoForTest(fifo)
	out := filepath.Join(dir, "out.jsonl")
	acts, _ := filepath.Abs(examples)
	for _, args := range [][]string{
		{"check", "--activity", acts, "--episode", eps},
		{"check", "--activity", acts, "--episode", eps, "--details"},
		{"check", "--format", "json", "--activity", acts, "--episode", eps},
		{"check", "--activity", acts, "--out", out, "--episode", eps},
		{"results", "merge", out},
		{"results", "merge", "--format", "json", out},
		{"parse", defs},
		{"validate", defs},
		{"fmt", "-d", defs},
		{"explain", filepath.Join(defs, "e.bddl")},
		{"check", "--activity", filepath.Join(defs, "e.bddl"), "--episode", filepath.Join(eps, "a.jsonl")},
	} {
		r := runBDDL(t, args...)
		for name, text := range map[string]string{"stdout": r.stdout, "stderr": r.stderr} {
			for i := 0; i < len(text); i++ {
				if c := text[i]; c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
					t.Errorf("bddl %s: %s has byte %#x at %d: %q", strings.Join(args, " "), name, c, i, text[max(0, i-20):min(len(text), i+20)])
					break
				}
			}
			if strings.Contains(text, "\u009b") {
				t.Errorf("bddl %s: %s has a C1 CSI", strings.Join(args, " "), name)
			}
			for _, line := range strings.Split(text, "\n") {
				if strings.HasPrefix(line, "FAKE LINE") {
					t.Errorf("bddl %s: %s has a forged line:\n%s", strings.Join(args, " "), name, text)
					break
				}
			}
		}
	}
	_ = os.Remove(fifo)
}
