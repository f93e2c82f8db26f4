package lsp

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
)

const (
	cookiesURI = "file:///defs/baking_a_tray_of_cookies/problem0.bddl"
	liberoURI  = "file:///libero/KITCHEN_SCENE1_put_the_bowl_on_the_plate.bddl"
)

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// at returns the position of the n-th (from 0) occurrence of needle in
// text, moved by delta bytes, in UTF-16 units (the texts are ASCII).
func posOf(t testing.TB, text, needle string, n, delta int) position {
	t.Helper()
	off := -1
	for i, from := 0, 0; i <= n; i++ {
		j := strings.Index(text[from:], needle)
		if j < 0 {
			t.Fatalf("%q: occurrence %d not found", needle, n)
		}
		off = from + j
		from = off + 1
	}
	d := newDocument("", 0, text, false)
	return d.position(off + delta)
}

func docParams(uri string, p position) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": p}
}

// TestSession runs a session as an editor does: initialize, open,
// diagnostics, change, diagnostics of the new version, close, shutdown,
// exit.
func TestSession(t *testing.T) {
	t.Parallel()
	c := newClient(t, Options{})
	res := c.initialize(false)
	caps, _ := res["capabilities"].(map[string]any)
	if caps["positionEncoding"] != "utf-16" || caps["hoverProvider"] != true {
		t.Fatalf("capabilities = %v", caps)
	}
	text := readTestdata(t, "cookies.bddl")
	c.open(cookiesURI, text, 1)
	if d := c.diagnostics(cookiesURI, 1); len(d) != 0 {
		t.Fatalf("diagnostics of a clean file = %v", d)
	}
	broken := strings.Replace(text, "(cooked sugar_cookie_dough.n.01_1)", "(cookd sugar_cookie_dough.n.01_1)", 1)
	c.change(cookiesURI, broken, 2)
	d := c.diagnostics(cookiesURI, 2)
	if len(d) != 1 || d[0].Code != "unknown-predicate" || d[0].Severity != 1 {
		t.Fatalf("diagnostics after the change = %+v", d)
	}
	want := posOf(t, broken, "cookd", 0, 0)
	if d[0].Range.Start != want || d[0].Range.End.Character != want.Character+len("cookd") {
		t.Errorf("range = %+v, want from %+v over cookd", d[0].Range, want)
	}
	if d[0].Data == nil || !strings.Contains(d[0].Data.Fix, "did you mean cooked?") {
		t.Errorf("data = %+v, want the fix", d[0].Data)
	}
	// The fix is a quick fix.
	var actions []codeAction
	c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": cookiesURI}, "range": d[0].Range,
		"context": map[string]any{"diagnostics": d}}, &actions)
	if len(actions) != 1 || actions[0].Edit.Changes[cookiesURI][0].NewText != "cooked" {
		t.Errorf("code actions = %+v, want one replacing with cooked", actions)
	}
	c.forget(cookiesURI)
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": cookiesURI}})
	if d := c.diagnostics(cookiesURI, -1); len(d) != 0 {
		t.Errorf("diagnostics after close = %v, want them cleared", d)
	}
	// A request about a closed document has no answer, but is answered.
	var h any
	c.call("textDocument/hover", docParams(cookiesURI, position{}), &h)
	if h != nil {
		t.Errorf("hover on a closed document = %v", h)
	}
	if err := c.shutdown(); err != nil {
		t.Errorf("Serve after shutdown and exit = %v", err)
	}
}

// TestProtocolErrors: requests before initialize, unknown methods, bad
// JSON and a message over the limit get errors, and the session goes on.
func TestProtocolErrors(t *testing.T) {
	t.Parallel()
	c := newClient(t, Options{})
	_, ch := c.send("textDocument/hover", docParams(cookiesURI, position{}))
	if m := c.wait("hover", ch); m.Error == nil || m.Error.Code != codeNotInitialized {
		t.Errorf("hover before initialize: %+v, want error %d", m, codeNotInitialized)
	}
	c.initialize(true)
	_, ch = c.send("textDocument/noSuchThing", map[string]any{})
	if m := c.wait("noSuchThing", ch); m.Error == nil || m.Error.Code != codeMethodNotFound {
		t.Errorf("unknown method: %+v", m)
	}
	// Bad JSON: answered with a parse error, the stream stays in step.
	c.w.mu.Lock()
	_, _ = c.toSrv.Write([]byte("Content-Length: 5\r\n\r\n{bad}"))
	// Over the limit: skipped unread.
	_, _ = c.toSrv.Write([]byte("Content-Length: 16777217\r\n\r\n"))
	_, _ = c.toSrv.Write(make([]byte, MaxMessageBytes+1))
	c.w.mu.Unlock()
	text := readTestdata(t, "cookies.bddl")
	c.open(cookiesURI, text, 7)
	c.diagnostics(cookiesURI, 7)
	var syms []documentSymbol
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": cookiesURI}}, &syms)
	if len(syms) == 0 {
		t.Error("no symbols after the bad messages")
	}
	if err := c.shutdown(); err != nil {
		t.Errorf("Serve = %v", err)
	}
}

// TestExitWithoutShutdown: exit before shutdown is an error (exit code 1).
func TestExitWithoutShutdown(t *testing.T) {
	t.Parallel()
	c := newClient(t, Options{})
	c.initialize(false)
	c.notify("exit", nil)
	if err := <-c.done; err == nil {
		t.Error("Serve = nil after exit without shutdown, want an error")
	}
	c.done <- nil
}

// TestIncrementalChanges: ranged changes are applied in order, in UTF-16
// units around characters outside the BMP.
func TestIncrementalChanges(t *testing.T) {
	t.Parallel()
	s := newServer(Options{Debounce: -1}, nopWriter{})
	s.inited = true
	text := "; 🍪 cookies\n(define (problem p)\n    (:domain omnigibson))\n"
	s.didOpen(mustJSON(t, didOpenParams{TextDocument: textDocumentItem{URI: "u", Version: 1, Text: text}}))
	changes := []contentChange{
		// Replace "cookies" (after the emoji: 2 units) with "biscuits".
		{Range: &lspRange{Start: position{0, 5}, End: position{0, 12}}, Text: "biscuits"},
		// Insert a line before the domain.
		{Range: &lspRange{Start: position{2, 0}, End: position{2, 0}}, Text: "    ; d\n"},
	}
	s.didChange(mustJSON(t, didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: "u", Version: 2}, ContentChanges: changes}))
	want := "; 🍪 biscuits\n(define (problem p)\n    ; d\n    (:domain omnigibson))\n"
	if got := s.docs["u"].text; got != want {
		t.Errorf("text after changes = %q, want %q", got, want)
	}
	if s.docs["u"].version != 2 {
		t.Errorf("version = %d", s.docs["u"].version)
	}
}

type nopWriter struct{}

func (nopWriter) Write(b []byte) (int, error) { return len(b), nil }

func mustJSON(t testing.TB, v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestExamplesMatchValidate: every embedded example, and each with a
// mistake, gets the diagnostics validation reports.
func TestExamplesMatchValidate(t *testing.T) {
	t.Parallel()
	c := newClient(t, Options{})
	c.initialize(false)
	v := 0
	for _, a := range activities.Examples().Activities {
		uri := pathURI("/" + a.Path)
		for _, text := range []string{string(a.Source), strings.Replace(string(a.Source), "(:init", "(:init (ontop x.n.01_1)", 1)} {
			v++
			c.open(uri, text, v)
			compareDiagnostics(t, a.Path, text, c.diagnostics(uri, v), expectedFindings(t, uriPath(uri), text, nil))
		}
	}
	// Mistakes beside text beyond ASCII (UTF-16 positions), a half-typed
	// file, a byte-order mark, LIBERO.
	for _, name := range []string{"mistakes.bddl", "halftyped.bddl", "bom.bddl", "libero.bddl"} {
		v++
		uri := pathURI("/testdata/" + name)
		text := readTestdata(t, name)
		c.open(uri, text, v)
		got := c.diagnostics(uri, v)
		if len(got) == 0 && name != "cookies.bddl" {
			t.Errorf("%s: no diagnostics", name)
		}
		compareDiagnostics(t, name, text, got, expectedFindings(t, uriPath(uri), text, nil))
	}
}

// expectedFindings is what validate reports of text.
func expectedFindings(t testing.TB, path, text string, base any) []bddl.DiagnosticRecord {
	t.Helper()
	_, rep, _ := activities.ValidateDefinition(path, []byte(text), bddl.DialectAuto, kbOf(base), activities.SkipRules("no-scene"))
	var out []bddl.DiagnosticRecord
	for i := range rep.Findings {
		r := rep.Findings[i].Record()
		r.File, r.Offset = "", 0
		out = append(out, r)
	}
	return out
}

// compareDiagnostics holds the server's diagnostics to validate's records:
// the same findings in the same order, each with its line and column
// (1-based, bytes, as validate writes them), severity, code, message, fix.
func compareDiagnostics(t testing.TB, name, text string, got []diagnostic, want []bddl.DiagnosticRecord) {
	t.Helper()
	doc := newDocument("", 0, text, false)
	src := bddl.NewSource("", []byte(text))
	var recs []bddl.DiagnosticRecord
	for _, d := range got {
		r := bddl.DiagnosticRecord{Code: d.Code, Message: d.Message}
		switch d.Severity {
		case 1:
			r.Severity = bddl.Error
		case 2:
			r.Severity = bddl.Warning
		default:
			r.Severity = bddl.Info
		}
		if d.Data != nil {
			r.Fix = d.Data.Fix
		}
		if d.Range != (lspRange{}) || len(want) > len(recs) && want[len(recs)].Line > 0 {
			s, e := src.Pos(doc.offset(d.Range.Start)), src.Pos(doc.offset(d.Range.End))
			r.Line, r.Col, r.EndLine, r.EndCol = s.Line, s.Col, e.Line, e.Col
		}
		recs = append(recs, r)
	}
	if diff := cmp.Diff(want, recs); diff != "" {
		t.Errorf("%s: diagnostics differ from validate's (-validate +lsp):\n%s", name, diff)
	}
}

// TestEmbeddedKBWarning: a file declaring synsets the embedded knowledge
// base (used when nothing names another) does not know gets one warning
// saying how to give the real one, however often it changes.
func TestEmbeddedKBWarning(t *testing.T) {
	t.Parallel()
	c := newClient(t, Options{})
	c.initialize(false)
	text := readTestdata(t, "mistakes.bddl")
	c.open(cookiesURI, text, 1)
	c.diagnostics(cookiesURI, 1)
	c.change(cookiesURI, text+"\n", 2)
	c.diagnostics(cookiesURI, 2)
	c.mu.Lock()
	defer c.mu.Unlock()
	var warnings []string
	for _, m := range c.others {
		var p struct {
			Type    int
			Message string
		}
		if m.Method == "window/showMessage" && json.Unmarshal(m.Params, &p) == nil && p.Type == 2 {
			warnings = append(warnings, p.Message)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "does not know plate.n.044") {
		t.Errorf("warnings = %q, want one naming plate.n.044", warnings)
	}
}
