package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/openbddl/bddl/internal/corpus"
)

// docFiles are README.md and every page under docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{filepath.Join("..", "..", "README.md")}, pages...)
}

var (
	mdLink    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdHeading = regexp.MustCompile("(?m)^#{1,6} +(.+)$")
	fenceLine = regexp.MustCompile("^```")
)

// slug is GitHub's anchor of a heading.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// anchors lists the heading anchors of a Markdown text, outside code.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range mdHeading.FindAllStringSubmatch(stripFences(text), -1) {
		out[slug(m[1])] = true
	}
	return out
}

// stripFences blanks fenced code blocks.
func stripFences(text string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(text, "\n") {
		if fenceLine.MatchString(line) {
			in = !in
			b.WriteByte('\n')
			continue
		}
		if !in {
			b.WriteString(line)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestDocLinks checks that every relative link of README.md and docs/
// resolves to a file of the repository, and an anchor to a heading of it.
func TestDocLinks(t *testing.T) {
	t.Parallel()
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	for _, file := range docFiles(t) {
		text := string(readFile(t, file))
		for _, m := range mdLink.FindAllStringSubmatch(stripFences(text), -1) {
			target := m[1]
			if regexp.MustCompile(`^[a-z]+:`).MatchString(target) {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			dest := file
			if path != "" {
				dest = filepath.Join(filepath.Dir(file), path)
			}
			abs, _ := filepath.Abs(dest)
			if !strings.HasPrefix(abs, root+string(filepath.Separator)) {
				t.Errorf("%s: link %s leaves the repository", file, target)
				continue
			}
			if _, err := os.Stat(dest); err != nil {
				t.Errorf("%s: link %s: %v", file, target, err)
				continue
			}
			if anchor != "" && strings.HasSuffix(dest, ".md") && !anchors(string(readFile(t, dest)))[anchor] {
				t.Errorf("%s: link %s: no heading #%s in %s", file, target, anchor, dest)
			}
		}
	}
}

// TestReadme checks the README's length, that it names no file outside
// the repository, and that every bddl command in its code blocks parses
// with the current command line: its --help succeeds.
func TestReadme(t *testing.T) {
	t.Parallel()
	text := string(readFile(t, filepath.Join("..", "..", "README.md")))
	if n := strings.Count(text, "\n"); n > 250 {
		t.Errorf("README.md has %d lines, want at most 250: move the detail to docs/", n)
	}
	if strings.Contains(text, "../") {
		t.Errorf("README.md refers to a file outside the repository (../)")
	}
	var cmds [][]string
	in := false
	for _, line := range strings.Split(text, "\n") {
		if fenceLine.MatchString(line) {
			in = !in
			continue
		}
		if !in {
			continue
		}
		args := commandArgs(line)
		if args != nil {
			cmds = append(cmds, args)
		}
	}
	if len(cmds) < 5 {
		t.Fatalf("found %d bddl commands in the README's code blocks", len(cmds))
	}
	for _, args := range cmds {
		r := runBDDL(t, append(args, "--help")...)
		if r.code != exitOK {
			t.Errorf("README command bddl %s: --help exits %d: %s", strings.Join(args, " "), r.code, r.stderr)
		}
	}
}

// commandArgs returns the arguments of a "bddl ..." or "go run
// ./cmd/bddl ..." line, without environment assignments, a trailing
// comment, pipes and redirections; nil for another line.
func commandArgs(line string) []string {
	line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "$ "))
	if i := strings.Index(line, " #"); i >= 0 {
		line = line[:i]
	}
	for _, sep := range []string{" | ", " && ", " > ", " 2>"} {
		if i := strings.Index(line, sep); i >= 0 {
			line = line[:i]
		}
	}
	fields := shellFields(line)
	for len(fields) > 0 && regexp.MustCompile(`^[A-Z_]+=`).MatchString(fields[0]) {
		fields = fields[1:]
	}
	switch {
	case len(fields) >= 3 && fields[0] == "go" && fields[1] == "run" && fields[2] == "./cmd/bddl":
		return fields[3:]
	case len(fields) >= 1 && fields[0] == "bddl":
		return fields[1:]
	}
	return nil
}

// shellFields splits a command line at spaces outside single or double
// quotes.
func shellFields(s string) []string {
	var out []string
	var cur strings.Builder
	quote := rune(0)
	has := false
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote == 0 && (r == '\'' || r == '"'):
			quote, has = r, true
		case quote == 0 && r == ' ':
			if has {
				out = append(out, cur.String())
				cur.Reset()
				has = false
			}
		default:
			cur.WriteRune(r)
			has = true
		}
	}
	if has {
		out = append(out, cur.String())
	}
	return out
}

// TestReadmeCommandArgs pins the command-line extraction the README test
// relies on.
func TestReadmeCommandArgs(t *testing.T) {
	for line, want := range map[string]string{
		"bddl check --episode 'runs/**/*.jsonl' -o r.jsonl   # note": "check|--episode|runs/**/*.jsonl|-o|r.jsonl",
		"BDDL_KB=x.yaml bddl kb check | head":                        "kb|check",
		"go run ./cmd/bddl validate":                                 "validate",
		"go test ./...":                                              "",
	} {
		if got := strings.Join(commandArgs(line), "|"); got != want {
			t.Errorf("commandArgs(%q) = %q, want %q", line, got, want)
		}
	}
}

// TestDocDrawings: the drawings docs/sampler.md and the README show are
// what the documented commands draw with this build (regenerate them with
// those commands when a change moves an object). The first needs only the
// embedded defaults; the other two the BEHAVIOR-1K and OmniGibson data.
func TestDocDrawings(t *testing.T) {
	t.Parallel()
	doc := string(readFile(t, "../../docs/sampler.md"))
	draw := func(t *testing.T, svg, wantFile string, args ...string) {
		out := t.TempDir()
		args = append(args, "--svg", "-o", out)
		r := runBDDL(t, args...)
		r.wantCode(t, args, 0)
		files, _ := filepath.Glob(filepath.Join(out, "*", "*.svg"))
		if len(files) != 1 {
			t.Fatalf("bddl %s drew %v", strings.Join(args, " "), files)
		}
		if wantFile != "" && filepath.Base(files[0]) != wantFile {
			t.Errorf("bddl %s wrote %s, the docs name %s", strings.Join(args, " "), filepath.Base(files[0]), wantFile)
		}
		if got, want := readFile(t, files[0]), readFile(t, filepath.Join("../../docs", svg)); !bytes.Equal(got, want) {
			t.Errorf("docs/%s is not what bddl %s draws now: regenerate it", svg, strings.Join(args, " "))
		}
	}
	t.Run("embedded", func(t *testing.T) {
		m := regexp.MustCompile("`samples/tidying_the_living_room/([^`]+)\\.jsonl`").FindStringSubmatch(doc)
		if m == nil {
			t.Fatal("docs/sampler.md no longer names the file of the first command")
		}
		draw(t, "sample-tidying_the_living_room.svg", m[1]+".svg", "sample", "tidying_the_living_room")
	})
	t.Run("corpus", func(t *testing.T) {
		b1k := corpus.Dir(t)
		og := corpus.OmniGibsonDir(t)
		kbDir := corpus.KBDir(t)
		ogDefs := corpus.OmniGibsonPackage(t).Activities
		draw(t, "sampler-real-layout.svg", "", "sample", filepath.Join(ogDefs, "cook_bacon", "problem0.bddl"), "--kb", kbDir,
			"--scene-file", filepath.Join(og, "cook_bacon", "house_single_floor_task_cook_bacon_0_0_template-partial_rooms.json"), "--seed", "1")
		draw(t, "sampler-laid-out.svg", "", "sample", filepath.Join(b1k, "activity_definitions", "storing_food", "problem0.bddl"),
			"--kb", kbDir, "--scene", "Rs_int", "--seed", "2")
	})
}
