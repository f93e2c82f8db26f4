package lsp

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/openbddl/bddl/bddl"
)

// edit replaces the first occurrence of old in text with new.
func edit(t testing.TB, text, old, new string) string {
	t.Helper()
	if !strings.Contains(text, old) {
		t.Fatalf("%q not in the text", old)
	}
	return strings.Replace(text, old, new, 1)
}

// applyEdits applies text edits (UTF-16 positions) to text.
func applyEdits(t testing.TB, text string, edits []textEdit) string {
	t.Helper()
	d := newDocument("", 0, text, false)
	type off struct {
		s, e int
		new  string
	}
	var offs []off
	for _, e := range edits {
		offs = append(offs, off{d.offset(e.Range.Start), d.offset(e.Range.End), e.NewText})
	}
	sort.SliceStable(offs, func(i, j int) bool { return offs[i].s > offs[j].s })
	for i, o := range offs {
		if i > 0 && o.e > offs[i-1].s {
			t.Fatalf("overlapping edits %+v", edits)
		}
		text = text[:o.s] + o.new + text[o.e:]
	}
	return text
}

// session opens the named test files (B1K and LIBERO) in one server.
func session(t *testing.T) (*client, map[string]string) {
	c := newClient(t, Options{})
	c.initialize(false)
	texts := map[string]string{cookiesURI: readTestdata(t, "cookies.bddl"), liberoURI: readTestdata(t, "libero.bddl")}
	v := 0
	for uri, text := range texts {
		v++
		c.open(uri, text, v)
	}
	return c, texts
}

// cursor names a position: the n-th occurrence of needle, plus delta bytes.
type cursor struct {
	needle string
	n      int
	delta  int
}

func TestHover(t *testing.T) {
	t.Parallel()
	c, texts := session(t)
	tests := []struct {
		name string
		uri  string
		at   cursor
		want []string // substrings of the hover, in order
	}{
		{"instance declared", cookiesURI, cursor{"sugar_cookie_dough.n.01_1", 0, 3},
			[]string{"**sugar_cookie_dough.n.01_1** — instance of `sugar_cookie_dough.n.01`, declared on line 5", "Mentioned by:", ":init 18: `(inside sugar_cookie_dough.n.01_1 electric_refrigerator.n.01_1)`", ":init 20: `(not (cooked sugar_cookie_dough.n.01_1))`"}},
		{"instance in the goal", cookiesURI, cursor{"?plate.n.04_1", 1, 2},
			[]string{"**plate.n.04_1** — instance of `plate.n.04`, declared on line 8", "plate.n.04_1 - plate.n.04", ":goal 60: `(ontop ?plate.n.04_1 ?countertop.n.01_2)`"}},
		{"predicate", cookiesURI, cursor{"(cooked", 0, 3},
			[]string{"(cooked ?obj1)", "1 argument, domain omnigibson", "is cooked", "`?obj1`: nonSubstance and cookable", "Decided by: max_temperature"}},
		{"two-place predicate", cookiesURI, cursor{"(ontop", 0, 3},
			[]string{"(ontop ?obj1 ?obj2)", "2 arguments", "is on top of"}},
		{"synset", cookiesURI, cursor{"- oven.n.01", 0, 4},
			[]string{"**oven.n.01** — WordNet synset", "- parents:", "- children:", "- properties:", "- thresholds: cook"}},
		{"variable", cookiesURI, cursor{"(cooked ?sugar_cookie.n.01)", 0, 10},
			[]string{"**?sugar_cookie.n.01** — variable of type `sugar_cookie.n.01`, bound by forall on line 54"}},
		{"room type", cookiesURI, cursor{"kitchen)", 0, 2}, []string{"**kitchen** — room type"}},
		{"connective", cookiesURI, cursor{"forall", 0, 1}, []string{"**forall** — (forall (?x - type) body)"}},
		{"section", cookiesURI, cursor{":init", 0, 2}, []string{"**:init** — the ground literals"}},
		{"libero region", liberoURI, cursor{"kitchen_table_bowl_init_region", 0, 5},
			[]string{"**bowl_init_region** — LIBERO region, referred to as `kitchen_table_bowl_init_region`", "(:target kitchen_table)"}},
		{"libero predicate", liberoURI, cursor{"(On", 0, 1}, []string{"**on** — LIBERO predicate, 2 arguments"}},
		{"libero fixture", liberoURI, cursor{"wooden_cabinet_1 -", 0, 1},
			[]string{"**wooden_cabinet_1** — fixture of `wooden_cabinet`", "LIBERO category"}},
		{"libero category", liberoURI, cursor{"- akita_black_bowl", 0, 3}, []string{"**akita_black_bowl** — LIBERO category"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h *hover
			c.call("textDocument/hover", docParams(tt.uri, posOf(t, texts[tt.uri], tt.at.needle, tt.at.n, tt.at.delta)), &h)
			if h == nil {
				t.Fatalf("no hover, want %q", tt.want)
			}
			got, from := h.Contents.Value, 0
			for _, w := range tt.want {
				i := strings.Index(got[from:], w)
				if i < 0 {
					t.Fatalf("hover = %q\nwant (in order) %q", got, w)
				}
				from += i + len(w)
			}
		})
	}
	// Nothing under the cursor: no hover.
	var h *hover
	c.call("textDocument/hover", docParams(cookiesURI, position{Line: 2, Character: 0}), &h)
	if h != nil {
		t.Errorf("hover on a blank line = %+v", h)
	}
}

func TestCompletion(t *testing.T) {
	t.Parallel()
	c, texts := session(t)
	cookies, lib := texts[cookiesURI], texts[liberoURI]
	tests := []struct {
		name    string
		uri     string
		text    string
		at      cursor
		first   string   // the best candidate
		want    []string // also offered
		without []string // not offered
	}{
		{"predicate", cookiesURI, edit(t, cookies, "(inside plate.n.04_1 cabinet.n.01_1)", "(insi"), cursor{"(insi", 0, 5},
			"inside", nil, []string{"and", "forall"}},
		{"goal connective", cookiesURI, edit(t, cookies, "(real ?sugar_cookie.n.01_3)", "(fo"), cursor{"(fo", 0, 3},
			"folded", []string{"forall", "forn", "fornpairs"}, nil},
		{"argument of the accepted type", cookiesURI, edit(t, cookies, "(cooked sugar_cookie_dough.n.01_1)", "(cooked )"), cursor{"(cooked )", 0, 8},
			"sugar_cookie_dough.n.01_1", []string{"sugar_cookie.n.01_1"}, []string{"floor.n.01_1", "agent.n.01_1", "oven.n.01_1"}},
		{"second argument", cookiesURI, edit(t, cookies, "(ontop cookie_sheet.n.01_1 countertop.n.01_1)", "(ontop cookie_sheet.n.01_1 coun"), cursor{"(ontop cookie_sheet.n.01_1 coun", 0, 31},
			"countertop.n.01_1", []string{"countertop.n.01_2"}, nil},
		{"room", cookiesURI, edit(t, cookies, "(inroom oven.n.01_1 kitchen)", "(inroom oven.n.01_1 kit)"), cursor{"(inroom oven.n.01_1 kit)", 0, 23},
			"kitchen", nil, []string{"oven.n.01_1"}},
		{"variable in scope", cookiesURI, edit(t, cookies, "(cooked ?sugar_cookie.n.01)", "(cooked ?sug)"), cursor{"(cooked ?sug)", 0, 12},
			"?sugar_cookie.n.01", []string{"?sugar_cookie.n.01_1"}, nil},
		{"type", cookiesURI, edit(t, cookies, "plate.n.04_1 - plate.n.04", "plate.n.04_1 - plat"), cursor{"- plat", 0, 6},
			"plate.n.04", nil, nil},
		{"section", cookiesURI, edit(t, cookies, "(:init", "(:in"), cursor{"(:in", 0, 4},
			":init", nil, []string{":objects"}},
		{"libero region", liberoURI, edit(t, lib, "(On plate_1 kitchen_table_plate_init_region)", "(On plate_1 kitchen_table_p)"), cursor{"kitchen_table_p)", 0, 15},
			"kitchen_table_plate_init_region", nil, []string{"plate_1"}},
		{"libero predicate", liberoURI, edit(t, lib, "(And (On akita_black_bowl_1 plate_1))", "(And (Tu))"), cursor{"(Tu", 0, 3},
			"Turnon", []string{"Turnoff"}, nil},
		{"libero sections", liberoURI, edit(t, lib, "(:obj_of_interest", "(:obj"), cursor{"(:obj", 0, 5},
			":objects", []string{":obj_of_interest"}, nil},
	}
	v := 100
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v++
			c.change(tt.uri, tt.text, v)
			var list completionList
			c.call("textDocument/completion", docParams(tt.uri, posOf(t, tt.text, tt.at.needle, tt.at.n, tt.at.delta)), &list)
			var labels []string
			for _, it := range list.Items {
				labels = append(labels, it.Label)
			}
			if len(labels) == 0 || labels[0] != tt.first {
				t.Fatalf("completions = %q, want %q first", labels, tt.first)
			}
			for _, w := range tt.want {
				if !slices.Contains(labels, w) {
					t.Errorf("completions = %q, want %q among them", labels, w)
				}
			}
			for _, w := range tt.without {
				if slices.Contains(labels, w) {
					t.Errorf("completions = %q, want no %q", labels, w)
				}
			}
			// The edit replaces the word typed.
			if e := list.Items[0].TextEdit; e == nil || applyEdits(t, tt.text, []textEdit{*e}) == tt.text && tt.first != "" {
				if e == nil || !strings.Contains(tt.text, tt.first) {
					t.Errorf("the first item's edit %+v changes nothing", e)
				}
			}
		})
	}
}

func TestDefinitionAndReferences(t *testing.T) {
	t.Parallel()
	c, texts := session(t)
	tests := []struct {
		name string
		uri  string
		at   cursor
		def  cursor   // where the declaration is
		refs []cursor // every reference, declaration included, in order
	}{
		{"instance", cookiesURI, cursor{"?plate.n.04_1", 1, 3}, cursor{"plate.n.04_1", 0, 0},
			[]cursor{{"plate.n.04_1", 0, 0}, {"plate.n.04_1", 1, 0}, {"?plate.n.04_1", 0, 0}, {"?plate.n.04_1", 1, 0}}},
		{"variable", cookiesURI, cursor{"(ontop ?sugar_cookie.n.01 ", 0, 9}, cursor{"?sugar_cookie.n.01 -", 0, 0},
			[]cursor{{"?sugar_cookie.n.01 -", 0, 0}, {"?sugar_cookie.n.01)", 0, 0}, {"?sugar_cookie.n.01 ?", 0, 0}}},
		{"libero region", liberoURI, cursor{"kitchen_table_bowl_init_region", 0, 3}, cursor{"bowl_init_region", 0, 0},
			[]cursor{{"bowl_init_region", 0, 0}, {"kitchen_table_bowl_init_region", 0, 0}}},
		{"libero fixture from a target", liberoURI, cursor{"(:target wooden_cabinet_1)", 0, 10}, cursor{"wooden_cabinet_1 -", 0, 0},
			[]cursor{{"wooden_cabinet_1", 0, 0}, {"wooden_cabinet_1", 1, 0}}},
		{"libero object", liberoURI, cursor{"plate_1)", 0, 0}, cursor{"plate_1 -", 0, 0},
			[]cursor{{"plate_1 -", 0, 0}, {"plate_1\n", 0, 0}, {"plate_1 kitchen", 0, 0}, {"plate_1)", 0, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := texts[tt.uri]
			p := posOf(t, text, tt.at.needle, tt.at.n, tt.at.delta)
			var locs []location
			c.call("textDocument/definition", docParams(tt.uri, p), &locs)
			if want := posOf(t, text, tt.def.needle, tt.def.n, tt.def.delta); len(locs) != 1 || locs[0].Range.Start != want {
				t.Errorf("definition = %+v, want at %+v", locs, want)
			}
			params := docParams(tt.uri, p)
			params["context"] = map[string]any{"includeDeclaration": true}
			c.call("textDocument/references", params, &locs)
			var got, want []position
			for _, l := range locs {
				got = append(got, l.Range.Start)
			}
			for _, r := range tt.refs {
				want = append(want, posOf(t, text, r.needle, r.n, r.delta))
			}
			if !slices.Equal(got, want) {
				t.Errorf("references = %v, want %v", got, want)
			}
		})
	}
}

func TestRename(t *testing.T) {
	t.Parallel()
	c, texts := session(t)
	cookies := texts[cookiesURI]
	tests := []struct {
		name    string
		at      cursor
		newName string
		want    string // the text after the rename; "" for an error
	}{
		{"instance", cursor{"?plate.n.04_1", 0, 4}, "dish.n.01_1", strings.ReplaceAll(cookies, "plate.n.04_1", "dish.n.01_1")},
		{"variable", cursor{"?sugar_cookie.n.01 -", 0, 2}, "?cookie",
			strings.ReplaceAll(strings.ReplaceAll(cookies, "?sugar_cookie.n.01 ", "?cookie "), "?sugar_cookie.n.01)", "?cookie)")},
		{"to a name declared", cursor{"oven.n.01_1", 0, 0}, "floor.n.01_1", ""},
		{"a predicate", cursor{"(ontop", 0, 2}, "on", ""},
		{"a bad name", cursor{"oven.n.01_1", 0, 0}, "two words", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			params := docParams(cookiesURI, posOf(t, cookies, tt.at.needle, tt.at.n, tt.at.delta))
			params["newName"] = tt.newName
			_, ch := c.send("textDocument/rename", params)
			m := c.wait("rename", ch)
			if tt.want == "" {
				if m.Error == nil {
					t.Errorf("rename to %q: %s, want an error", tt.newName, m.Result)
				}
				return
			}
			if m.Error != nil {
				t.Fatalf("rename: %v", m.Error.Message)
			}
			var we workspaceEdit
			if err := json.Unmarshal(m.Result, &we); err != nil {
				t.Fatal(err)
			}
			if got := applyEdits(t, cookies, we.Changes[cookiesURI]); got != tt.want {
				t.Errorf("after rename:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestFormatting(t *testing.T) {
	t.Parallel()
	c, texts := session(t)
	for _, tt := range []struct {
		name, uri string
	}{{"behavior1k", cookiesURI}, {"libero", liberoURI}} {
		t.Run(tt.name, func(t *testing.T) {
			f, diags := bddl.ParseFile("x", []byte(texts[tt.uri]))
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			want := string(bddl.Format(f))
			// Messed up: every line's indentation gone.
			lines := strings.Split(texts[tt.uri], "\n")
			for i := range lines {
				lines[i] = strings.TrimSpace(lines[i])
			}
			messy := strings.Join(lines, "\n")
			c.change(tt.uri, messy, 200)
			var edits []textEdit
			c.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": tt.uri}, "options": map[string]any{}}, &edits)
			if got := applyEdits(t, messy, edits); got != want {
				t.Errorf("formatted:\n%s\nwant (bddl fmt):\n%s", got, want)
			}
			// Range formatting of lines 3-6 touches only them.
			c.call("textDocument/rangeFormatting", map[string]any{"textDocument": map[string]any{"uri": tt.uri},
				"range": lspRange{Start: position{Line: 2}, End: position{Line: 5, Character: 1}}, "options": map[string]any{}}, &edits)
			if len(edits) == 0 {
				t.Fatal("range formatting: no edits")
			}
			for _, e := range edits {
				if e.Range.Start.Line < 2 || e.Range.End.Line > 6 {
					t.Errorf("range formatting edit %+v outside lines 3-6", e)
				}
			}
			// A file with syntax errors is left alone, as fmt leaves it.
			c.change(tt.uri, messy+"(", 201)
			c.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": tt.uri}, "options": map[string]any{}}, &edits)
			if len(edits) != 0 {
				t.Errorf("formatting a file with syntax errors: %+v", edits)
			}
		})
	}
}

func TestSymbolsAndTokens(t *testing.T) {
	t.Parallel()
	c, _ := session(t)
	var syms []documentSymbol
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": cookiesURI}}, &syms)
	var names []string
	for _, s := range syms {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{":domain", ":objects", ":init", ":goal"}) {
		t.Errorf("symbols = %q", names)
	}
	if len(syms) == 4 {
		if n := len(syms[1].Children); n != 16 {
			t.Errorf(":objects has %d children, want the 16 instances", n)
		}
		if n := len(syms[2].Children); n != 19 {
			t.Errorf(":init has %d children, want its 19 literals", n)
		}
	}
	var toks semanticTokens
	c.call("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": cookiesURI}}, &toks)
	if len(toks.Data) == 0 || len(toks.Data)%5 != 0 {
		t.Errorf("semantic tokens: %d numbers", len(toks.Data))
	}
}
