package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/kb"
)

// compileSchema compiles one of the embedded record schemas.
func compileSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	data, err := schemaFor(name)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name+".json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(name + ".json")
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// TestJSONLinesMatchSchemas runs every command that prints records with
// --format json and checks that the output is JSON Lines, each line valid
// against the schema of its record type.
func TestJSONLinesMatchSchemas(t *testing.T) {
	t.Parallel()
	dir, _ := episodeTree(t)
	_, oopsieSessionDir, oopsieMap := oopsieSession(t)
	_, annotateSessionDir, annotateMap := oopsieSession(t)
	doraSessionDir, doraMap := doraSession(t)
	// The OmniGibson fixture's synsets are in the example knowledge base
	// as a file (the embedded one serves only the embedded examples).
	exampleYAML := filepath.Join(t.TempDir(), "example-kb.yaml")
	writeFile(t, exampleYAML, kb.DefaultYAML())
	liberoEpisodes := t.TempDir()
	runBDDL(t, "sample", "-n", "2", "-o", liberoEpisodes, filepath.Join(liberoErrors, "valid.bddl"))
	out := filepath.Join(t.TempDir(), "out.jsonl")
	runBDDL(t, "check", "--out", out, "--episode", filepath.Join(dir, "runs"))
	tests := []struct {
		schema string
		args   []string
	}{
		{"result", []string{"check", "--format", "json", "--episode", filepath.Join(dir, "runs")}},
		{"result", []string{"results", "merge", "--format", "json", out}},
		{"finding", []string{"validate", "--format", "json", "--kb", validateKB, validateDir}},
		{"finding", []string{"validate", "--format", "json", "--kb-rules", "--kb", validateKB, filepath.Join(validateDir, "good_act")}},
		{"finding", []string{"kb", "check", "--format", "json", "--kb", filepath.Join("testdata", "validate", "kb.yaml")}},
		{"parse", []string{"parse", "--format", "json", "testdata"}},
		{"explain", []string{"explain", "--format", "json", filepath.Join("testdata", "cookies.bddl")}},
		{"synset", []string{"kb", "show", "--format", "json", "apple.n.01", "oven.n.01"}},
		{"synset", []string{"kb", "search", "--format", "json", "apple"}},
		{"synset", []string{"kb", "tree", "--format", "json", "food.n.02"}},
		{"transition", []string{"transition", "list", "--format", "json"}},
		{"rule-explain", []string{"transition", "explain", "--format", "json", "sugar_cookies"}},
		{"result", []string{"check", "--transitions", "--format", "json", "--episode", examplePath("making_a_smoothie", "rules-off.jsonl")}},
		{"sample", []string{"sample", "--format", "json", "-n", "2", "-o", t.TempDir(), "tidying_the_living_room"}},
		{"sample", []string{"sample", "--format", "json", "--scene", "Studio_0", "-o", t.TempDir(), "doing_the_laundry"}},
		{"finding", []string{"validate", "--format", "json", "--scenes", "tidying_the_living_room", "cleaning_shoes"}},
		{"converted", []string{"episode", "convert", "--format", "json", roboLabPath("run_0.hdf5"), "--map", roboLabPath("names.yaml"), "-o", t.TempDir()}},
		{"converted", []string{"--kb", exampleYAML, "episode", "from-omnigibson", "--format", "json", "--no-progress", filepath.Join(ogFixtures, "tiny"), "-o", t.TempDir() + "/"}},
		{"converted", []string{"episode", "from-oopsie", "--format", "json", oopsieSessionDir, "--map", oopsieMap, "-o", t.TempDir()}},
		{"init", []string{"--kb", exampleYAML, "check", "--init", "--format", "json", "--no-progress", filepath.Join(ogFixtures, "tiny")}},
		{"init", []string{"check", "--init", "--format", "json", liberoEpisodes}},
		{"result", []string{"check", "--format", "json", liberoEpisodes}},
		{"sample", []string{"sample", "--format", "json", "-o", t.TempDir(), filepath.Join(liberoErrors, "valid.bddl")}},
		{"converted", []string{"episode", "from-dora", "--format", "json", doraSessionDir, "--map", doraMap, "-o", t.TempDir()}},
		// annotate writes the annotator bddl that compare then measures.
		{"annotation", []string{"annotate", "--format", "json", annotateSessionDir, "--map", annotateMap, "--annotator", "bddl"}},
		{"agreement", []string{"annotations", "compare", "--format", "json", annotateSessionDir, "--against", "human"}},
		{"setting", []string{"config", "--format", "json"}},
		{"version", []string{"version", "--format", "json"}},
	}
	// Every command with --format json is in the table.
	noSchema := map[string]bool{}
	covered := map[string]bool{}
	for _, tc := range tests {
		c, _, err := newRootCmd(streams{}).Find(tc.args)
		if err == nil {
			covered[strings.TrimPrefix(c.CommandPath(), "bddl ")] = true
		}
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := strings.TrimPrefix(c.CommandPath(), "bddl ")
		if c.Flags().Lookup("format") != nil && !covered[path] && !noSchema[path] {
			t.Errorf("bddl %s has --format json but no line of it is checked against a schema here", path)
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(newRootCmd(streams{}))
	for _, tc := range tests {
		s := compileSchema(t, tc.schema)
		r := runBDDL(t, tc.args...)
		if r.code == exitMisuse {
			t.Errorf("%v: %s", tc.args, r.stderr)
			continue
		}
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		if r.stdout == "" {
			t.Errorf("%v printed nothing", tc.args)
			continue
		}
		for i, line := range lines {
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(line))
			if err != nil {
				t.Errorf("%v line %d is not one JSON value: %v\n%.200s", tc.args, i+1, err, line)
				continue
			}
			// A line that says its record type follows that schema.
			s := s
			if rec, ok := v.(map[string]any)["record"].(string); ok && rec != tc.schema {
				s = compileSchema(t, rec)
			}
			if err := s.Validate(v); err != nil {
				t.Errorf("%v line %d does not match %s: %v\n%.300s", tc.args, i+1, tc.schema, err, line)
			}
		}
	}
}

// TestValidateRecordsSayTheirType: validate --scenes --format json mixes
// findings and scene records; each line says which it is.
func TestValidateRecordsSayTheirType(t *testing.T) {
	t.Parallel()
	r := runBDDL(t, "validate", "--format", "json", "--scenes", "tidying_the_living_room")
	kinds := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		kind, _ := rec["record"].(string)
		kinds[kind]++
	}
	if kinds["scenes"] != 1 || kinds[""] != 0 {
		t.Errorf("record kinds %v, want one scenes record and every line typed", kinds)
	}
}

// TestSchemaListAligned: the record types' descriptions start in one
// column.
func TestSchemaListAligned(t *testing.T) {
	t.Parallel()
	r := runBDDL(t, "schema")
	col := -1
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		line = strings.TrimLeft(line, " ")
		i := strings.Index(line, " ")
		j := i + len(line[i:]) - len(strings.TrimLeft(line[i:], " "))
		if col >= 0 && j != col {
			t.Errorf("misaligned list:\n%s", r.stdout)
			break
		}
		col = j
	}
}

func TestSchemaCommand(t *testing.T) {
	t.Parallel()
	r := runBDDL(t, "schema")
	for name := range schemaNames {
		if !strings.Contains(r.stdout, name) {
			t.Errorf("schema list lacks %s", name)
		}
		r := runBDDL(t, "schema", name)
		if r.code != exitOK || !json.Valid([]byte(r.stdout)) {
			t.Errorf("schema %s: exit %d", name, r.code)
		}
	}
	for _, tt := range []struct{ arg, want string }{
		{"nothing", "one of agreement, annotation, converted, episode"},
		{"reslt", `no record type "reslt"; did you mean result?`},
		{"scene", "did you mean scenes?"},
	} {
		args := []string{"schema", tt.arg}
		r := runBDDL(t, args...)
		r.wantCode(t, args, exitMisuse)
		if !strings.Contains(r.stderr, tt.want) {
			t.Errorf("bddl %v: stderr %q, want %q", args, r.stderr, tt.want)
		}
	}
}

// TestSchemaTableInDocs: docs/cli.md's table of record types lists
// every schema bddl schema prints.
func TestSchemaTableInDocs(t *testing.T) {
	t.Parallel()
	doc := string(readFile(t, filepath.Join("..", "..", "docs", "cli.md")))
	for name := range schemaNames {
		if !strings.Contains(doc, "`bddl schema "+name+"`") {
			t.Errorf("docs/cli.md's schema table lacks %s", name)
		}
	}
}

// TestInitRecordsMatchSchema: check --init --format json and its -o file
// print "init" records that match bddl schema init, for BEHAVIOR-1K
// episodes and LIBERO ones alike, with -o resuming, --shard splitting
// the states, and the flags --init cannot honour refused.
func TestInitRecordsMatchSchema(t *testing.T) {
	t.Parallel()
	s := compileSchema(t, "init")
	samples := t.TempDir()
	args := []string{"sample", "-n", "4", "cleaning_shoes", "-o", samples}
	runBDDL(t, args...).wantCode(t, args, exitOK)
	liberoEps := t.TempDir()
	args = []string{"sample", "-n", "4", "-o", liberoEps, filepath.Join(liberoErrors, "valid.bddl")}
	runBDDL(t, args...).wantCode(t, args, exitOK)
	for _, dir := range []string{samples, liberoEps} {
		args := []string{"check", "--init", "--format", "json", dir}
		r := runBDDL(t, args...)
		r.wantCode(t, args, exitOK)
		checkJSONLines(t, s, "check --init --format json", r.stdout)
		if n := strings.Count(r.stdout, `"record":"init"`); n != 4 {
			t.Errorf("%v: %d init records, want 4:\n%s", args, n, r.stdout)
		}
		if strings.Contains(r.stdout, `"path"`) || strings.Contains(r.stdout, `"activity":"/`) {
			t.Errorf("%v: records name a path where an activity or episode goes:\n%s", args, r.stdout)
		}
		// -o writes the records and resumes from them.
		out := filepath.Join(t.TempDir(), "init.jsonl")
		args = []string{"check", "--init", dir, "-o", out}
		r = runBDDL(t, args...)
		r.wantCode(t, args, exitOK)
		checkJSONLines(t, s, "check --init -o", string(readFile(t, out)))
		if n := strings.Count(string(readFile(t, out)), "\n"); n != 4 {
			t.Errorf("%v: -o wrote %d lines, want 4", args, n)
		}
		r = runBDDL(t, args...)
		r.wantCode(t, args, exitOK)
		if !strings.Contains(r.stderr, "4 of 4 states already checked; checking 0") || !strings.Contains(r.stdout, "(4 of the 4 states from earlier runs)") {
			t.Errorf("resumed: stdout %q stderr %q", r.stdout, r.stderr)
		}
		if n := strings.Count(string(readFile(t, out)), "\n"); n != 4 {
			t.Errorf("the resumed run appended: %d lines", n)
		}
		// Shards cover every state once.
		seen := map[string]int{}
		for _, shard := range []string{"0/2", "1/2"} {
			args := []string{"check", "--init", "--format", "json", "--shard", shard, dir}
			r := runBDDL(t, args...)
			for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
				var rec initResult
				if l != "" && json.Unmarshal([]byte(l), &rec) == nil {
					seen[rec.Episode]++
				}
			}
		}
		if len(seen) != 4 {
			t.Errorf("%s: shards checked %v, want each of 4 states once", dir, seen)
		}
		for ep, n := range seen {
			if n != 1 {
				t.Errorf("%s checked by %d shards", ep, n)
			}
		}
		for _, flag := range [][]string{{"--plot", "p.svg"}, {"--per-step"}, {"--hold", "3"}, {"--negation", "strict"}} {
			args := append(append([]string{"check", "--init"}, flag...), dir)
			r := runBDDL(t, args...)
			r.wantCode(t, args, exitMisuse)
			if !strings.Contains(r.stderr, flag[0]+" does not apply to --init") {
				t.Errorf("%v: stderr %q", args, r.stderr)
			}
		}
	}
}
