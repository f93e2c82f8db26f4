// Command lspshot draws a page of an editor session with bddl lsp, from
// the server's real answers: it starts `bddl lsp`, opens a definition
// (with edits applied, to show mistakes), waits for its diagnostics, asks
// for hovers, and writes one HTML page showing the text with the
// diagnostics underlined, a diagnostic's message and fix, and the hovers.
// docs/editors.md's screenshot is this page drawn by headless Chromium:
//
//	go build -o /tmp/bddl ./cmd/bddl
//	go run ./tools/lspshot -bddl /tmp/bddl -kb ../shared/behavior1k/generated_data \
//	    -file ../shared/behavior1k/activity_definitions/cook_bacon/problem0.bddl \
//	    -replace '(cooked bacon.n.01_1)=>(cookd bacon.n.01_1)' -replace 'frying_pan.n.01_1 - frying_pan.n.01=>frying_pan.n.01_1 - fryingpan.n.01' \
//	    -explain cookd -hover ' - bacon.n.01' -lines 1:26 -o /tmp/session.html
//	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,650 --screenshot=docs/editors-session.png /tmp/session.html
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"io"
	"log"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ", ") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

type pos struct{ Line, Character int }
type rng struct{ Start, End pos }
type diag struct {
	Range    rng
	Severity int
	Code     string
	Message  string
	Data     struct{ Fix string }
}

func main() {
	bin := flag.String("bddl", "bddl", "the bddl binary")
	kb := flag.String("kb", "", "the knowledge base (--kb)")
	file := flag.String("file", "", "the definition to open")
	var replace, hovers multi
	flag.Var(&replace, "replace", "OLD=>NEW: an edit made before opening (repeatable)")
	flag.Var(&hovers, "hover", "text whose first occurrence is hovered, one character in (repeatable)")
	explain := flag.String("explain", "", "text inside the diagnostic whose message and fix are shown")
	lines := flag.String("lines", "1:30", "FIRST:LAST lines shown")
	out := flag.String("o", "session.html", "the HTML page written")
	flag.Parse()
	src, err := os.ReadFile(*file)
	if err != nil {
		log.Fatal(err)
	}
	text := string(src)
	for _, r := range replace {
		old, new, ok := strings.Cut(r, "=>")
		if !ok || !strings.Contains(text, old) {
			log.Fatalf("-replace %q: not OLD=>NEW with OLD in the file", r)
		}
		text = strings.Replace(text, old, new, 1)
	}
	args := []string{"lsp"}
	if *kb != "" {
		args = append(args, "--kb", *kb)
	}
	cmd := exec.Command(*bin, args...)
	cmd.Stderr = os.Stderr
	in, _ := cmd.StdinPipe()
	outp, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	br := bufio.NewReader(outp)
	send := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(in, "Content-Length: %d\r\n\r\n%s", len(b), b)
	}
	recv := func() map[string]json.RawMessage {
		n := 0
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				log.Fatal("the server ended: ", err)
			}
			if line = strings.TrimSpace(line); line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				n, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(br, body); err != nil {
			log.Fatal(err)
		}
		var m map[string]json.RawMessage
		json.Unmarshal(body, &m)
		return m
	}
	abs, _ := filepath.Abs(*file)
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
	send(map[string]any{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": map[string]any{"capabilities": map[string]any{
		"general": map[string]any{"positionEncodings": []string{"utf-8"}}}}})
	recv()
	send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": "bddl", "version": 1, "text": text}}})
	var diags []diag
	for {
		m := recv()
		if string(m["method"]) == `"textDocument/publishDiagnostics"` {
			var p struct{ Diagnostics []diag }
			json.Unmarshal(m["params"], &p)
			diags = p.Diagnostics
			break
		}
	}
	docLines := strings.Split(text, "\n")
	posOf := func(needle string) pos {
		i := strings.Index(text, needle)
		if i < 0 {
			log.Fatalf("%q not in the text", needle)
		}
		i += len(needle) - len(strings.TrimLeft(needle, " -("))
		line := strings.Count(text[:i], "\n")
		return pos{line, i - (strings.LastIndex(text[:i], "\n") + 1) + 1}
	}
	type shown struct {
		at   pos
		body string
	}
	var boxes []shown
	for i, h := range hovers {
		p := posOf(h)
		send(map[string]any{"jsonrpc": "2.0", "id": i + 1, "method": "textDocument/hover", "params": map[string]any{
			"textDocument": map[string]any{"uri": uri}, "position": p}})
		m := recv()
		for m["id"] == nil {
			m = recv()
		}
		var res struct{ Contents struct{ Value string } }
		json.Unmarshal(m["result"], &res)
		boxes = append(boxes, shown{p, markdown(res.Contents.Value)})
	}
	if *explain != "" {
		p := posOf(*explain)
		for _, d := range diags {
			if d.Range.Start.Line == p.Line && d.Range.Start.Character <= p.Character && p.Character <= d.Range.End.Character {
				body := fmt.Sprintf(`<div class="msg">%s <span class="code">bddl(%s)</span></div>`, html.EscapeString(d.Message), html.EscapeString(d.Code))
				if d.Data.Fix != "" {
					body += `<div class="fix">fix: ` + html.EscapeString(d.Data.Fix) + `</div><div class="qf">Quick Fix…</div>`
				}
				boxes = append(boxes, shown{p, body})
			}
		}
	}
	send(map[string]any{"jsonrpc": "2.0", "id": 99, "method": "shutdown"})
	send(map[string]any{"jsonrpc": "2.0", "method": "exit"})
	in.Close()
	cmd.Wait()

	first, last := 1, len(docLines)
	fmt.Sscanf(*lines, "%d:%d", &first, &last)
	var b strings.Builder
	b.WriteString(page)
	fmt.Fprintf(&b, `<div class="tab">%s</div><div class="editor">`, html.EscapeString(filepath.Base(filepath.Dir(*file))+"/"+filepath.Base(*file)))
	for n := first; n <= last && n <= len(docLines); n++ {
		line := docLines[n-1]
		fmt.Fprintf(&b, `<div class="line"><span class="ln">%d</span><span class="src">%s</span>`, n, underline(line, n-1, diags))
		for _, bx := range boxes {
			if bx.at.Line == n-1 {
				fmt.Fprintf(&b, `<div class="box" style="left:%dch">%s</div>`, bx.at.Character+5, bx.body)
			}
		}
		b.WriteString("</div>\n")
	}
	fmt.Fprintf(&b, `</div><div class="problems"><b>PROBLEMS %d</b>`, len(diags))
	for _, d := range diags {
		sev := []string{"", "error", "warning", "info"}[d.Severity]
		fmt.Fprintf(&b, `<div class="p %s">%s <span class="code">bddl(%s)</span> [Ln %d, Col %d]</div>`, sev, html.EscapeString(d.Message), html.EscapeString(d.Code), d.Range.Start.Line+1, d.Range.Start.Character+1)
	}
	b.WriteString("</div></body></html>\n")
	if err := os.WriteFile(*out, []byte(b.String()), 0o644); err != nil {
		log.Fatal(err)
	}
}

// underline wraps the parts of line that diagnostics cover.
func underline(line string, n int, diags []diag) string {
	marks := make([]int, len(line)+1)
	for _, d := range diags {
		if d.Range.Start.Line > n || d.Range.End.Line < n {
			continue
		}
		s, e := 0, len(line)
		if d.Range.Start.Line == n {
			s = min(d.Range.Start.Character, len(line))
		}
		if d.Range.End.Line == n {
			e = min(d.Range.End.Character, len(line))
		}
		for i := s; i < e; i++ {
			if marks[i] == 0 || d.Severity < marks[i] {
				marks[i] = d.Severity
			}
		}
	}
	var b strings.Builder
	cur := 0
	for i := 0; i <= len(line); i++ {
		m := 0
		if i < len(line) {
			m = marks[i]
		}
		if m != cur {
			if cur != 0 {
				b.WriteString("</span>")
			}
			if m != 0 {
				fmt.Fprintf(&b, `<span class="sq%d">`, m)
			}
			cur = m
		}
		if i < len(line) {
			b.WriteString(html.EscapeString(line[i : i+1]))
		}
	}
	return b.String()
}

var (
	bold = regexp.MustCompile(`\*\*([^*]+)\*\*`)
	code = regexp.MustCompile("`([^`]+)`")
)

// markdown renders the little Markdown the server writes.
func markdown(s string) string {
	var b strings.Builder
	inFence, inList := false, false
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		if strings.HasPrefix(line, "```") {
			if inFence {
				b.WriteString("</pre>")
			} else {
				b.WriteString(`<pre>`)
			}
			inFence = !inFence
			continue
		}
		if inFence {
			b.WriteString(html.EscapeString(line) + "\n")
			continue
		}
		item := strings.HasPrefix(strings.TrimSpace(line), "- ")
		if item && !inList {
			b.WriteString("<ul>")
		} else if !item && inList {
			b.WriteString("</ul>")
		}
		inList = item
		l := html.EscapeString(strings.TrimPrefix(strings.TrimSpace(line), "- "))
		l = bold.ReplaceAllString(l, "<b>$1</b>")
		l = code.ReplaceAllString(l, "<code>$1</code>")
		switch {
		case item:
			b.WriteString("<li>" + l + "</li>")
		case l != "":
			b.WriteString("<p>" + l + "</p>")
		}
	}
	if inList {
		b.WriteString("</ul>")
	}
	return b.String()
}

const page = `<!doctype html><html><head><meta charset="utf-8"><style>
body{margin:0;background:#1e1e1e;color:#d4d4d4;font:13px/19px "DejaVu Sans Mono",monospace}
.tab{background:#252526;color:#fff;padding:6px 14px;border-bottom:1px solid #333;font-family:sans-serif}
.editor{padding:6px 0}
.line{position:relative;white-space:pre;height:19px}
.ln{display:inline-block;width:4ch;text-align:right;color:#858585;margin-right:1ch}
.sq1{text-decoration:underline wavy #f14c4c;text-underline-offset:3px}
.sq2{text-decoration:underline wavy #cca700;text-underline-offset:3px}
.sq3{text-decoration:underline dotted #3794ff}
.box{position:absolute;top:20px;z-index:2;max-width:78ch;white-space:normal;background:#252526;border:1px solid #454545;
  padding:6px 10px;font:12px/17px sans-serif;box-shadow:0 2px 8px #000}
.box pre{font:12px/16px "DejaVu Sans Mono",monospace;background:#1e1e1e;padding:4px 6px;margin:4px 0;white-space:pre-wrap}
.box p{margin:3px 0}.box ul{margin:3px 0;padding-left:18px}.box code{font-family:"DejaVu Sans Mono",monospace;color:#ce9178}
.box .msg{color:#f14c4c}.box .fix{color:#d4d4d4;margin-top:3px}.box .qf{color:#3794ff;margin-top:5px}
.code{color:#858585}
.problems{border-top:1px solid #333;padding:6px 14px;font:12px/18px sans-serif;background:#1e1e1e}
.p.error:before{content:"⨂ ";color:#f14c4c}.p.warning:before{content:"⚠ ";color:#cca700}.p.info:before{content:"ⓘ ";color:#3794ff}
</style></head><body>`
