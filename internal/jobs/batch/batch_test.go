package batch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// tree writes files (path → content) under a new directory.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func paths(ins []Input, root string) []string {
	var out []string
	for _, in := range ins {
		rel, _ := filepath.Rel(root, in.Path)
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

var episodeOpts = ExpandOptions{What: "episodes", Match: IsEpisodeFile, Describe: "*.jsonl or *.jsonl.gz"}

func TestExpand(t *testing.T) {
	dir := tree(t, map[string]string{
		"runs/a/1.jsonl":       "",
		"runs/a/b/2.jsonl.gz":  "",
		"runs/c/3.jsonl.gz":    "",
		"runs/c/notes.txt":     "",
		"runs/top.jsonl.gz":    "",
		"empty/readme.md":      "",
		"other/linked/4.jsonl": "",
		"other/linked/5.jsonl": "",
	})
	os.Symlink(filepath.Join(dir, "other", "linked"), filepath.Join(dir, "runs", "link"))
	os.Symlink(filepath.Join(dir, "runs"), filepath.Join(dir, "runs", "c", "loop"))
	if err := mkfifoForTest(filepath.Join(dir, "runs", "fifo.jsonl")); err != nil {
		t.Skip(err)
	}
	var notes []string
	o := episodeOpts
	o.Note = func(s string) { notes = append(notes, s) }

	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"recursive glob", []string{filepath.Join(dir, "runs/**/*.jsonl.gz")}, []string{"runs/a/b/2.jsonl.gz", "runs/c/3.jsonl.gz", "runs/top.jsonl.gz"}},
		{"directory with a linked subdirectory", []string{filepath.Join(dir, "runs")},
			[]string{"runs/a/1.jsonl", "runs/a/b/2.jsonl.gz", "runs/c/3.jsonl.gz", "runs/link/4.jsonl", "runs/link/5.jsonl", "runs/top.jsonl.gz"}},
		{"file twice", []string{filepath.Join(dir, "runs/a/1.jsonl"), filepath.Join(dir, "runs/a/../a/1.jsonl")}, []string{"runs/a/1.jsonl"}},
		{"link argument", []string{filepath.Join(dir, "runs/link")}, []string{"runs/link/4.jsonl", "runs/link/5.jsonl"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Expand(tc.args, o)
			if err != nil {
				t.Fatal(err)
			}
			if p := paths(got, dir); !reflect.DeepEqual(p, tc.want) {
				t.Errorf("got %v\nwant %v", p, tc.want)
			}
		})
	}
	if n := strings.Join(notes, "\n"); !strings.Contains(n, "fifo.jsonl: a FIFO") || !strings.Contains(n, "loop") {
		t.Errorf("notes: %s", n)
	}

	for _, bad := range []struct{ arg, want string }{
		{filepath.Join(dir, "empty"), "no episodes found under " + filepath.Join(dir, "empty")},
		{filepath.Join(dir, "nowhere"), filepath.Join(dir, "nowhere") + ": no such file"},
		{filepath.Join(dir, "runs/**/*.none"), "no file matches"},
	} {
		if _, err := Expand([]string{bad.arg}, o); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Expand(%s) = %v, want %q", bad.arg, err, bad.want)
		}
	}
}

func TestExpandRel(t *testing.T) {
	dir := tree(t, map[string]string{"runs/x/1.jsonl": ""})
	for _, arg := range []string{filepath.Join(dir, "runs"), filepath.Join(dir, "runs/**/*.jsonl")} {
		got, err := Expand([]string{arg}, episodeOpts)
		if err != nil {
			t.Fatal(err)
		}
		if got[0].Rel != "x/1.jsonl" {
			t.Errorf("%s: Rel %q, want x/1.jsonl", arg, got[0].Rel)
		}
	}
}

func TestShardsCoverOnce(t *testing.T) {
	var keys []string
	for i := range 1000 {
		keys = append(keys, fmt.Sprintf("run%d/episode-%d.jsonl.gz", i%37, i))
	}
	for _, n := range []int{1, 2, 3, 7, 64} {
		seen := map[string]int{}
		for i := range n {
			s, err := ParseShard(fmt.Sprintf("%d/%d", i, n))
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range Select(s, keys, func(k string) string { return k }) {
				seen[k]++
			}
		}
		if len(seen) != len(keys) {
			t.Errorf("N=%d: %d of %d keys covered", n, len(seen), len(keys))
		}
		for k, c := range seen {
			if c != 1 {
				t.Errorf("N=%d: %s taken %d times", n, k, c)
			}
		}
	}
	for _, bad := range []string{"4/4", "-1/3", "1", "a/b", "0/0"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
}

func TestPlanResume(t *testing.T) {
	dir := t.TempDir()
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	os.Chdir(dir)
	recs := []Record{
		{Episode: "a.jsonl", Success: true},
		{Episode: filepath.Join(dir, "b.jsonl"), Error: "boom"},
		{Episode: "./c.jsonl", Error: "boom"},
		{Episode: "c.jsonl", Success: false}, // a later verdict wins
	}
	for i := range recs {
		recs[i].Key = PathKey(recs[i].Episode)
	}
	keys := []string{PathKey(filepath.Join(dir, "a.jsonl")), PathKey("b.jsonl"), PathKey("c.jsonl"), PathKey("d.jsonl")}
	p := PlanResume(recs, keys)
	if !reflect.DeepEqual(p.Todo, []int{1, 3}) || p.Retried != 1 || len(p.Done) != 2 {
		t.Errorf("plan %+v", p)
	}
}

func TestResultsFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "out.jsonl")
	os.WriteFile(p, []byte(`{"episode":"a","success":true}`+"\nnot json\n"+`{"episode":"b","succ`), 0o644)
	var notes []string
	note := func(s string) { notes = append(notes, s) }
	rf, err := OpenResults(p, note)
	if err != nil {
		t.Fatal(err)
	}
	if len(rf.Records()) != 1 || rf.Records()[0].Episode != "a" {
		t.Errorf("records %+v", rf.Records())
	}
	if n := strings.Join(notes, "\n"); !strings.Contains(n, ":2: not a result line") || !strings.Contains(n, "partial last line") {
		t.Errorf("notes %s", n)
	}
	// A second writer is refused while the first holds the file.
	if _, err := OpenResults(p, note); err == nil || !strings.Contains(err.Error(), "another run is writing") {
		t.Errorf("second writer: %v", err)
	}
	if err := rf.Append(map[string]any{"episode": "c", "x": 1}); err != nil {
		t.Fatal(err)
	}
	rf.Close()
	b, _ := os.ReadFile(p)
	if want := `{"episode":"a","success":true}` + "\nnot json\n" + `{"episode":"c","x":1}` + "\n"; string(b) != want {
		t.Errorf("file:\n%s\nwant:\n%s", b, want)
	}
	if _, err := OpenResults("/dev/null", note); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("/dev/null: %v", err)
	}
}

func TestRunOrderAndDrops(t *testing.T) {
	items := make([]int, 100)
	for i := range items {
		items[i] = i
	}
	var completed, ordered []int
	err := Run(context.Background(), Pool{Jobs: 8}, items, func(_ context.Context, i int) (int, bool) {
		return i * 10, i%7 != 3
	}, Handlers[int]{
		Completed: func(_ int, r int) error { completed = append(completed, r); return nil },
		Ordered:   func(_ int, r int) error { ordered = append(ordered, r); return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for _, i := range items {
		if i%7 != 3 {
			want = append(want, i*10)
		}
	}
	if !reflect.DeepEqual(ordered, want) {
		t.Errorf("ordered %v", ordered)
	}
	sort.Ints(completed)
	if !reflect.DeepEqual(completed, want) {
		t.Errorf("completed %v", completed)
	}
}

func TestRunStopsOnCancelAndHandlerError(t *testing.T) {
	items := make([]int, 1000)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	err := Run(ctx, Pool{Jobs: 2}, items, func(ctx context.Context, i int) (int, bool) {
		return i, ctx.Err() == nil
	}, Handlers[int]{Completed: func(int, int) error {
		if n++; n == 10 {
			cancel()
		}
		return nil
	}})
	if err != nil || n >= 1000 {
		t.Errorf("err %v, %d completed after cancel at 10", err, n)
	}
	boom := fmt.Errorf("disk full")
	err = Run(context.Background(), Pool{Jobs: 2}, items, func(ctx context.Context, i int) (int, bool) { return i, true },
		Handlers[int]{Ordered: func(int, int) error { return boom }})
	if err != boom {
		t.Errorf("handler error: %v", err)
	}
}

func TestMergeResults(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	b := filepath.Join(dir, "b.jsonl")
	os.WriteFile(a, []byte(`{"episode":"runs/1.jsonl","activity":"x","success":true,"score":1}
{"episode":"runs/2.jsonl","activity":"x","error":"boom"}
`), 0o644)
	os.WriteFile(b, []byte(`{"episode":"runs/./2.jsonl","activity":"x","success":false,"score":0.5}
{"episode":"runs/1.jsonl","activity":"x","error":"late error"}
{"episode":"runs/3.jsonl","activity":"y","success":true,"score":1,"demo":"d"}
`), 0o644)
	m, err := MergeResults([]string{a, b}, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	if m.Duplicates != 2 || len(m.Records) != 3 {
		t.Fatalf("merged %+v", m)
	}
	if !m.Records[0].Success || m.Records[1].Score != 0.5 || !strings.Contains(string(m.Records[2].Line), `"demo":"d"`) {
		t.Errorf("records %+v", m.Records)
	}
	var sb strings.Builder
	WriteSummary(&sb, m.Records, 0)
	if !strings.Contains(strings.Join(strings.Fields(sb.String()), " "), "x 2 1 50.0% 0.750 0.000 0 y 1 1 100.0%") {
		t.Errorf("summary:\n%s", sb.String())
	}
}

func TestSummaryKeepsErrorsApart(t *testing.T) {
	var sb strings.Builder
	WriteSummary(&sb, []Record{{Activity: "x", Success: true, Score: 1}, {Activity: "x", Error: "boom"}}, 0)
	if !strings.Contains(strings.Join(strings.Fields(sb.String()), " "), "x 1 1 100.0% 1.000 0.000 1") {
		t.Errorf("an error was averaged in:\n%s", sb.String())
	}
}

func TestPlotPathsDoNotCollide(t *testing.T) {
	eps := []Episode{
		{Input: Input{Path: "a/success.jsonl", Rel: "a/success.jsonl"}},
		{Input: Input{Path: "b/success.jsonl", Rel: "b/success.jsonl"}},
		{Input: Input{Path: "c/success.jsonl", Rel: "success.jsonl"}},
		{Input: Input{Path: "d/success.jsonl", Rel: "success.jsonl"}},
	}
	got := PlotPaths("out/t.svg", eps)
	seen := map[string]bool{}
	for _, p := range got {
		if seen[p] {
			t.Errorf("two episodes plot to %s", p)
		}
		seen[p] = true
	}
	if len(seen) != 4 || got[eps[0].Key()] != "out/t-a_success.svg" {
		t.Errorf("paths %v", got)
	}
	// Files given themselves, by absolute or relative path: named after
	// the file, not the flattened path.
	files := []Episode{
		{Input: Input{Path: "/data/runs/x/ep1.jsonl", Arg: "/data/runs/x/ep1.jsonl", Rel: "/data/runs/x/ep1.jsonl"}},
		{Input: Input{Path: "runs/y/ep2.jsonl.gz", Arg: "runs/y/ep2.jsonl.gz", Rel: "runs/y/ep2.jsonl.gz"}},
	}
	got = PlotPaths("t.svg", files)
	if got[files[0].Key()] != "t-ep1.svg" || got[files[1].Key()] != "t-ep2.svg" {
		t.Errorf("files given themselves plot to %v", got)
	}
}

// TestPlotPathsControlBytes: a walked file name holding ESC, BEL, CR or
// LF never puts them in a plot's file name.
func TestPlotPathsControlBytes(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, rel, want string }{
		{"osc title", "c\x1b]0;T\a\nFAKE.jsonl", "t-c_x1b]0;T_a_nFAKE.svg"},
		{"carriage return", "d/e\r.jsonl", "t-d_e_r.svg"},
		{"plain", "d/e.jsonl", "t-d_e.svg"},
	}
	for _, tt := range tests {
		rel := tt.rel
		eps := []Episode{
			{Input: Input{Path: "runs/" + rel, Arg: "runs", Rel: rel}},
			{Input: Input{Path: "runs/other.jsonl", Arg: "runs", Rel: "other.jsonl"}},
		}
		got := PlotPaths("t.svg", eps)[eps[0].Key()]
		if got != tt.want {
			t.Errorf("%s: PlotPaths(%q) = %q, want %q", tt.name, rel, got, tt.want)
		}
	}
}

// TestSecondSignalExits: the first SIGINT cancels the context, the
// second exits at once with 130.
func TestSecondSignalExits(t *testing.T) {
	exited := make(chan int, 1)
	exit = func(code int) { exited <- code }
	defer func() { exit = os.Exit }()
	var errw strings.Builder
	ctx, stop := WithSignals(context.Background(), &errw)
	defer stop()
	signalSelf(syscall.SIGINT)
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the first SIGINT did not cancel")
	}
	signalSelf(syscall.SIGTERM)
	select {
	case code := <-exited:
		if code != ExitInterrupted {
			t.Errorf("exit %d", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the second signal did not exit")
	}
}

// TestEvaluateHook: a Checker's Evaluate hook sees each task and can
// change the state before the goal is evaluated (as --transitions will).
func TestEvaluateHook(t *testing.T) {
	ep := filepath.Join("..", "..", "..", "activities", "examples", "tidying_the_living_room", "episodes", "poses.jsonl")
	ins, err := Expand([]string{ep}, episodeOpts)
	if err != nil {
		t.Fatal(err)
	}
	base := kb.Default()
	steps := 0
	c := &Checker{Resolver: NewResolver(base, predicates.Options{}), Options: episode.CheckOptions{Hold: 1},
		Evaluate: func(ctx context.Context, task *Task) *episode.Result {
			opts := task.Options
			opts.AfterStep = func(s *predicates.State, _ episode.StepInfo) error {
				steps++
				return nil
			}
			return episode.Check(ctx, task.Program, task.Reader, opts)
		}}
	o := c.Check(context.Background(), Episodes(context.Background(), ins)[0])
	if o.Error != "" || steps != o.Steps || steps == 0 {
		t.Errorf("hook saw %d steps of %d: %s", steps, o.Steps, o.Error)
	}
	c.Evaluate = func(ctx context.Context, task *Task) *episode.Result {
		opts := task.Options
		opts.AfterStep = func(*predicates.State, episode.StepInfo) error { return fmt.Errorf("rule engine failed") }
		return episode.Check(ctx, task.Program, task.Reader, opts)
	}
	if o := c.Check(context.Background(), Episodes(context.Background(), ins)[0]); !strings.Contains(o.Error, "rule engine failed") || o.Success {
		t.Errorf("a failing hook: %+v", o.Result)
	}
}

// TestKeyInMatchesPathKey: the batch form of PathKey gives the same keys.
func TestKeyInMatchesPathKey(t *testing.T) {
	wd, _ := os.Getwd()
	for _, p := range []string{"a.jsonl", "./x/../a.jsonl", "/abs/b.jsonl", "run.hdf5#demo_3", "../up/c.jsonl.gz", "-", ""} {
		if got, want := keyIn(wd, p), PathKey(p); got != want {
			t.Errorf("keyIn(%q) = %q, PathKey = %q", p, got, want)
		}
	}
}

// TestFormatWithSeveralEpisodes: a registered format whose files hold
// several episodes yields one Episode per name, named path#name, sharded
// and resumed by that name, with the format's extra result fields.
func TestFormatWithSeveralEpisodes(t *testing.T) {
	src := filepath.Join("..", "..", "..", "activities", "examples", "tidying_the_living_room", "episodes", "poses.jsonl")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	run := filepath.Join(dir, "run_0.multi")
	os.WriteFile(run, data, 0o644)
	f := &Format{
		Name:     "multi",
		Suffixes: []string{".multi"},
		List: func(_ context.Context, path string) ([]string, error) {
			return []string{"demo_0", "demo_1", "demo_2"}, nil
		},
		Open: func(ctx context.Context, ep Episode, o OpenOptions) (*episode.Reader, io.Closer, error) {
			r, err := episode.NewReader(bytes.NewReader(data), ep.Name())
			return r, io.NopCloser(nil), err
		},
		Fields: func(ep Episode, _ *episode.Header) map[string]any { return map[string]any{"demo": ep.Sub} },
	}
	RegisterFormat(f)
	defer func() {
		formatsMu.Lock()
		formats = formats[:len(formats)-1]
		formatsMu.Unlock()
	}()
	ins, err := Expand([]string{dir}, ExpandOptions{What: "episodes", Match: IsEpisodeFile})
	if err != nil {
		t.Fatal(err)
	}
	eps := Episodes(context.Background(), ins)
	if len(eps) != 3 || eps[1].Name() != run+"#demo_1" || eps[1].ShardKey() != "run_0.multi#demo_1" {
		t.Fatalf("episodes %+v", eps)
	}
	c := &Checker{Resolver: NewResolver(kb.Default(), predicates.Options{}), Options: episode.CheckOptions{Hold: 1}}
	o := c.Check(context.Background(), eps[2])
	line, err := json.Marshal(o)
	if err != nil || o.Error != "" {
		t.Fatalf("%v %s", err, o.Error)
	}
	if !bytes.Contains(line, []byte(`"episode":"`+run+`#demo_2"`)) || !bytes.HasSuffix(line, []byte(`,"demo":"demo_2"}`)) {
		t.Errorf("result line: %s", line)
	}
	if k := eps[2].Key(); !strings.HasSuffix(k, "run_0.multi#demo_2") || !filepath.IsAbs(k) {
		t.Errorf("key %s", k)
	}
}
