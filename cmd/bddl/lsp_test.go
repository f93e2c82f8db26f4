package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/kb"
)

// lspRecord is what both validate --format json and the language server
// say of a finding.
type lspRecord struct {
	Line, Col, EndLine, EndCol int32
	Severity, Code, Message    string
	Fix                        string
}

// validateRecords runs validate --format json and groups its findings by
// file.
func validateRecords(t *testing.T, args ...string) map[string][]lspRecord {
	t.Helper()
	r := runBDDL(t, append([]string{"validate", "--format", "json", "--quiet"}, args...)...)
	if r.code > 1 {
		t.Fatalf("validate exited %d: %s", r.code, r.stderr)
	}
	out := map[string][]lspRecord{}
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		if line == "" {
			continue
		}
		var rec struct {
			Record, File, Severity, Code, Message, Fix string
			Line, Col, EndLine, EndCol                 int32
		}
		// end_line and end_col have underscores.
		line = strings.NewReplacer(`"end_line"`, `"EndLine"`, `"end_col"`, `"EndCol"`).Replace(line)
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if rec.Record != "" && rec.Record != "finding" {
			continue
		}
		out[rec.File] = append(out[rec.File], lspRecord{rec.Line, rec.Col, rec.EndLine, rec.EndCol, rec.Severity, rec.Code, rec.Message, rec.Fix})
	}
	return out
}

// lspSession runs bddl lsp with args in-process and opens files in it,
// returning what it published for each, as validate's records: it speaks
// the protocol with UTF-8 positions, so a column is the byte offset + 1.
func lspSession(t *testing.T, files []string, args ...string) map[string][]lspRecord {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	var errw bytes.Buffer
	go func() {
		code := runIn(os.TempDir(), append([]string{"lsp"}, args...), inR, outW, &errw)
		outW.Close()
		done <- code
	}()
	send := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(inW, "Content-Length: %d\r\n\r\n%s", len(b), b)
	}
	type message struct {
		ID     json.RawMessage
		Method string
		Params struct {
			URI         string
			Version     *int
			Diagnostics []struct {
				Range struct {
					Start, End struct{ Line, Character int32 }
				}
				Severity int
				Code     string
				Message  string
				Data     struct{ Fix string }
			}
		}
	}
	msgs := make(chan message, 16)
	go func() {
		br := bufio.NewReader(outR)
		for {
			var n int
			for {
				line, err := br.ReadString('\n')
				if err != nil {
					close(msgs)
					return
				}
				line = strings.TrimSpace(line)
				if line == "" {
					break
				}
				if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
					n, _ = strconv.Atoi(v)
				}
			}
			body := make([]byte, n)
			if _, err := io.ReadFull(br, body); err != nil {
				close(msgs)
				return
			}
			var m message
			if err := json.Unmarshal(body, &m); err != nil {
				t.Errorf("bad message: %v: %s", err, body)
			}
			msgs <- m
		}
	}()
	next := func(what string) message {
		select {
		case m, ok := <-msgs:
			if !ok {
				t.Fatalf("the server ended waiting for %s: %s", what, errw.String())
			}
			return m
		case <-time.After(time.Minute):
			t.Fatalf("no %s", what)
		}
		return message{}
	}
	send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"capabilities": map[string]any{"general": map[string]any{"positionEncodings": []string{"utf-8"}}}}})
	if m := next("initialize's answer"); string(m.ID) != "1" {
		t.Fatalf("first message %+v, want initialize's answer", m)
	}
	send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	out := map[string][]lspRecord{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(f)}).String()
		send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
			"textDocument": map[string]any{"uri": uri, "languageId": "bddl", "version": 1, "text": string(src)}}})
		var m message
		for m = next("diagnostics of " + f); m.Method != "textDocument/publishDiagnostics" || m.Params.URI != uri; m = next("diagnostics of " + f) {
		}
		recs := []lspRecord{}
		bom := bytes.HasPrefix(src, []byte("\xef\xbb\xbf"))
		col := func(line, char int32) int32 {
			if line == 0 && bom {
				return char - 2 // validate counts columns after a byte-order mark
			}
			return char + 1
		}
		for _, d := range m.Params.Diagnostics {
			s, e := d.Range.Start, d.Range.End
			r := lspRecord{s.Line + 1, col(s.Line, s.Character), e.Line + 1, col(e.Line, e.Character),
				[]string{"", "error", "warning", "info"}[d.Severity], d.Code, d.Message, d.Data.Fix}
			recs = append(recs, r)
		}
		out[f] = recs
		send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didClose", "params": map[string]any{"textDocument": map[string]any{"uri": uri}}})
	}
	send(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
	send(map[string]any{"jsonrpc": "2.0", "method": "exit"})
	inW.Close()
	if code := <-done; code != 0 {
		t.Errorf("bddl lsp exited %d: %s", code, errw.String())
	}
	return out
}

// compareWithValidate holds the server's diagnostics of every file to
// validate --format json's findings of it.
func compareWithValidate(t *testing.T, files []string, want, got map[string][]lspRecord) {
	t.Helper()
	n := 0
	for _, f := range files {
		n += len(got[f])
		w := want[f]
		if w == nil {
			w = []lspRecord{}
		}
		if diff := cmp.Diff(w, got[f]); diff != "" {
			t.Errorf("%s: bddl lsp's diagnostics differ from validate --format json's (-validate +lsp):\n%s", f, diff)
		}
	}
	t.Logf("%d files, %d diagnostics", len(files), n)
}

func bddlFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".bddl") {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no definitions under %s: %v", dir, err)
	}
	return files
}

// TestLSPDiagnosticsAreValidate: bddl lsp publishes for each file exactly
// the findings bddl validate --format json prints (position, severity,
// code, message, fix), on the embedded examples' files, the shared
// corpus with its knowledge base and LIBERO's definitions.
func TestLSPDiagnosticsAreValidate(t *testing.T) {
	t.Parallel()
	examples, err := filepath.Abs("../../activities/examples")
	if err != nil {
		t.Fatal(err)
	}
	testdata, err := filepath.Abs("../../lsp/testdata")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("examples", func(t *testing.T) {
		// The embedded examples, and the language server's test files:
		// mistakes, a half-typed file, a byte-order mark, text beyond ASCII.
		// The embedded knowledge base, named: the other commands refuse
		// a definition it does not know a synset of when nothing named it,
		// and a mistake in a synset is one.
		kbFile := filepath.Join(t.TempDir(), "kb.yaml")
		if err := os.WriteFile(kbFile, kb.DefaultYAML(), 0o644); err != nil {
			t.Fatal(err)
		}
		files := append(bddlFiles(t, examples), bddlFiles(t, testdata)...)
		// --stdio, which language clients pass, is accepted.
		compareWithValidate(t, files, validateRecords(t, "--kb", kbFile, examples, testdata), lspSession(t, files, "--kb", kbFile, "--stdio"))
	})
	t.Run("behavior1k", func(t *testing.T) {
		dir := corpus.ActivitiesDir(t)
		kbDir := corpus.KBDir(t)
		files := bddlFiles(t, dir)
		compareWithValidate(t, files, validateRecords(t, "--kb", kbDir, dir), lspSession(t, files, "--kb", kbDir))
	})
	t.Run("libero", func(t *testing.T) {
		dir := os.Getenv("BDDL_LIBERO")
		if dir == "" {
			dir = filepath.Join("..", "..", "..", "shared", "libero")
		}
		if _, err := os.Stat(dir); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("no LIBERO definitions at %s (set BDDL_LIBERO)", dir)
			}
			t.Skipf("no LIBERO definitions at %s (set BDDL_LIBERO)", dir)
		}
		dir, _ = filepath.Abs(dir)
		files := bddlFiles(t, dir)
		compareWithValidate(t, files, validateRecords(t, dir), lspSession(t, files))
	})
}

// TestLSPMisuse: bad flags and arguments are misuse (exit 2), before any
// protocol is spoken.
func TestLSPMisuse(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"lsp", "extra"},
		{"lsp", "--debounce", "-1ms"},
		{"lsp", "--dialect", "cobol"},
	} {
		runBDDL(t, args...).wantCode(t, args, exitMisuse)
	}
}
