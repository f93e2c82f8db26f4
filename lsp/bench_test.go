package lsp

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkChangeToDiagnostics measures what a person typing waits for:
// from a didChange of a 100-line definition sent by a client over a pipe
// to its diagnostics received, debounce (DefaultDebounce) included.
// Changes alternate between the file and the file with a typo, so every
// one is validated and published. It reports the median and the 99th
// percentile (ms) beside the mean.
func BenchmarkChangeToDiagnostics(b *testing.B) {
	text := readTestdata(b, "bench100.bddl")
	typo := strings.Replace(text, "(cooked sugar_cookie_dough.n.01_1)", "(cookd sugar_cookie_dough.n.01_1)", 1)
	c := newClient(b, Options{})
	c.initialize(false)
	const uri = "file:///bench/baking_a_tray_of_cookies/problem0.bddl"
	c.open(uri, text, 0)
	c.diagnostics(uri, 0)
	var times []time.Duration
	v := 0
	b.ReportAllocs()
	for b.Loop() {
		v++
		t := text
		if v%2 == 1 {
			t = typo
		}
		c.forget(uri)
		start := time.Now()
		c.change(uri, t, v)
		d := c.diagnostics(uri, v)
		times = append(times, time.Since(start))
		if (len(d) > 0) != (v%2 == 1) {
			b.Fatalf("version %d: %d diagnostics", v, len(d))
		}
	}
	slices.Sort(times)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(times[len(times)/2]), "median-ms")
	b.ReportMetric(ms(times[min(len(times)-1, len(times)*99/100)]), "p99-ms")
}

// BenchmarkDiagnose is the validation part alone, without the debounce
// and the transport.
func BenchmarkDiagnose(b *testing.B) {
	s := newServer(Options{}, nopWriter{})
	doc := newDocument("file:///bench/baking_a_tray_of_cookies/problem0.bddl", 1, readTestdata(b, "bench100.bddl"), false)
	b.ReportAllocs()
	b.SetBytes(int64(len(doc.text)))
	for b.Loop() {
		s.diagnose(doc)
	}
}

// BenchmarkRequests: the answer to each request on the 100-line file, its
// outline scanned once (as the server keeps it per version).
func BenchmarkRequests(b *testing.B) {
	s := newServer(Options{}, nopWriter{})
	text := readTestdata(b, "bench100.bddl")
	doc := newDocument("file:///bench/baking_a_tray_of_cookies/problem0.bddl", 1, text, false)
	for _, m := range []struct {
		name, method string
		at           string
	}{
		{"hover=instance", "textDocument/hover", "plate.n.04_7 cabinet"},
		{"hover=synset", "textDocument/hover", "oven.n.01\n"},
		{"completion=argument", "textDocument/completion", "cabinet.n.01_1)"},
		{"references", "textDocument/references", "plate.n.04_7 cabinet"},
		{"formatting", "textDocument/formatting", "(define"},
		{"semanticTokens", "textDocument/semanticTokens/full", "(define"},
	} {
		b.Run(m.name, func(b *testing.B) {
			raw := mustJSON(b, docParams(doc.uri, posOf(b, text, m.at, 0, 1)))
			h := handlers[m.method]
			b.ReportAllocs()
			for b.Loop() {
				if _, err := h(s, b.Context(), doc, raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkScan is the outline of the 100-line file.
func BenchmarkScan(b *testing.B) {
	text := readTestdata(b, "bench100.bddl")
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		scan(text)
	}
}
