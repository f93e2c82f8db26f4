package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/jobs/batch"
)

// TestMain lets a test run the command line in a child process (for
// signals): with BDDL_TEST_MAIN=1 the test binary is bddl.
func TestMain(m *testing.M) {
	if os.Getenv("BDDL_TEST_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// bddlProcess starts the command line in a child process.
func bddlProcess(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "BDDL_TEST_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &stderr
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// episodeNaming returns the poses example with its header's activity
// replaced by ref.
func episodeNaming(t *testing.T, ref string) []byte {
	t.Helper()
	ep := readFile(t, examplePath("tidying_the_living_room", "poses.jsonl"))
	return bytes.Replace(ep, []byte(`"activity":"tidying_the_living_room"`), []byte(fmt.Sprintf(`"activity":%q`, ref)), 1)
}

// episodeTree lays the example episodes out as runs/<activity>/<file>,
// so that base names repeat across directories.
func episodeTree(t *testing.T) (string, int) {
	t.Helper()
	dir := t.TempDir()
	files, _ := filepath.Glob(filepath.Join(examples, "*", "episodes", "*"))
	for _, f := range files {
		act := filepath.Base(filepath.Dir(filepath.Dir(f)))
		writeFile(t, filepath.Join(dir, "runs", act, filepath.Base(f)), readFile(t, f))
	}
	return dir, len(files)
}

// TestCheckActivityDirAndTree: --activity takes an activity directory,
// and a tree, searched for the activity each header names.
func TestCheckActivityDirAndTree(t *testing.T) {
	args := []string{"check", "--activity", filepath.Join(examples, "tidying_the_living_room"),
		"--episode", examplePath("tidying_the_living_room", "poses.jsonl")}
	runBDDL(t, args...).wantCode(t, args, exitOK)

	args = []string{"check", "--format", "json", "--activity", examples, "--episode", examples}
	r := runBDDL(t, args...)
	res := jsonResults(t, r.stdout)
	if len(res) < 5 {
		t.Fatalf("%d results:\n%s", len(res), r.stderr)
	}
	for _, m := range res {
		ep := m["episode"].(string)
		want := filepath.Base(filepath.Dir(filepath.Dir(ep)))
		if m["activity"] != want {
			t.Errorf("%s checked against %v, want %s (the header's)", ep, m["activity"], want)
		}
	}

	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "ep.jsonl"), episodeNaming(t, "no_such_activity"))
	args = []string{"check", "--activity", examples, "--episode", filepath.Join(dir, "ep.jsonl")}
	r = runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	if !strings.Contains(r.stdout, `"no_such_activity" (named by the episode) not found in --activity`) {
		t.Errorf("a tree without the header's activity:\n%s", r.stdout)
	}
}

// TestCheckHeaderPath: a header's relative path is read from the
// episode's directory, whatever the working directory; a path outside
// the episode's tree and the libraries is never read.
func TestCheckHeaderPath(t *testing.T) {
	dir := t.TempDir()
	def := readFile(t, filepath.Join(examples, "tidying_the_living_room", "problem0.bddl"))
	writeFile(t, filepath.Join(dir, "runs", "defs", "tidy", "problem0.bddl"), def)
	writeFile(t, filepath.Join(dir, "runs", "ep.jsonl"), episodeNaming(t, "defs/tidy/problem0.bddl"))
	args := []string{"check", "--episode", filepath.Join(dir, "runs", "ep.jsonl")}
	runBDDL(t, args...).wantCode(t, args, exitOK)

	secret := filepath.Join(dir, "secret.bddl")
	writeFile(t, secret, []byte("topsecret"))
	for _, ref := range []string{"/dev/zero", "../secret.bddl", "../../../../../../../etc/passwd", secret} {
		writeFile(t, filepath.Join(dir, "runs", "bad.jsonl"), episodeNaming(t, ref))
		args := []string{"check", "--episode", filepath.Join(dir, "runs", "bad.jsonl")}
		start := time.Now()
		r := runBDDL(t, args...)
		r.wantCode(t, args, exitFindings)
		if strings.Contains(r.stdout+r.stderr, "topsecret") || strings.Contains(r.stdout+r.stderr, "root:") {
			t.Errorf("%s: the file was read:\n%s", ref, r.stdout)
		}
		if !strings.Contains(r.stdout, "not read") && !strings.Contains(r.stdout, "not found") {
			t.Errorf("%s: no clear error:\n%s", ref, r.stdout)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%s took %v", ref, d)
		}
	}
	// Inside a library given with --activities, a path is read.
	writeFile(t, filepath.Join(dir, "runs", "lib.jsonl"), episodeNaming(t, "../lib/tidy/problem0.bddl"))
	writeFile(t, filepath.Join(dir, "lib", "tidy", "problem0.bddl"), def)
	args = []string{"check", "--activities", filepath.Join(dir, "lib"), "--episode", filepath.Join(dir, "runs", "lib.jsonl")}
	runBDDL(t, args...).wantCode(t, args, exitOK)
}

// TestCheckActivityPipe: a definition given as a pipe (the shell's
// <(cat f.bddl)) is read once, for every episode directory.
func TestCheckActivityPipe(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	go func() {
		pw.Write(readFile(t, filepath.Join(examples, "tidying_the_living_room", "problem0.bddl")))
		pw.Close()
	}()
	dir := t.TempDir()
	ep := readFile(t, examplePath("tidying_the_living_room", "poses.jsonl"))
	writeFile(t, filepath.Join(dir, "a", "ep.jsonl"), ep)
	writeFile(t, filepath.Join(dir, "b", "ep.jsonl"), ep)
	args := []string{"check", "--activity", fmt.Sprintf("/dev/fd/%d", pr.Fd()), "--episode", dir}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	if !strings.Contains(r.stdout, "100.0%") {
		t.Errorf("summary:\n%s", r.stdout)
	}
}

// TestCheckRecursiveGlob: ** crosses directories.
func TestCheckRecursiveGlob(t *testing.T) {
	dir, n := episodeTree(t)
	args := []string{"check", "--format", "json", "--episode", filepath.Join(dir, "runs", "**", "*.jsonl*")}
	r := runBDDL(t, args...)
	if got := len(jsonResults(t, r.stdout)); got != n {
		t.Errorf("%d results, want %d:\n%s", got, n, r.stderr)
	}
}

// TestCheckShardsMerge runs N shards and merges their results: the same
// episodes and verdicts as one run, each exactly once.
func TestCheckShardsMerge(t *testing.T) {
	dir, n := episodeTree(t)
	runs := filepath.Join(dir, "runs")
	whole := filepath.Join(dir, "whole.jsonl")
	runBDDL(t, "check", "--out", whole, "--episode", runs)
	verdicts := func(path string) []string {
		var out []string
		for _, l := range resultLines(t, path) {
			out = append(out, fmt.Sprintf("%v %v %v", l["episode"], l["success"], l["score"]))
		}
		sort.Strings(out)
		return out
	}
	want := verdicts(whole)
	if len(want) != n {
		t.Fatalf("single run: %d results, want %d", len(want), n)
	}
	const shards = 3
	var outs []string
	total := 0
	for i := range shards {
		out := filepath.Join(dir, fmt.Sprintf("shard-%d.jsonl", i))
		outs = append(outs, out)
		args := []string{"check", "--shard", fmt.Sprintf("%d/%d", i, shards), "--out", out, "--episode", runs}
		r := runBDDL(t, args...)
		if r.code == exitMisuse {
			t.Fatalf("%v: %s", args, r.stderr)
		}
		total += len(resultLines(t, out))
	}
	if total != n {
		t.Errorf("the shards checked %d episodes, want %d", total, n)
	}
	all := filepath.Join(dir, "all.jsonl")
	args := append(append([]string{"results", "merge"}, outs...), outs[0], "-o", all)
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitFindings) // some examples fail by design
	if got := verdicts(all); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("merged:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(r.stdout, "ACTIVITY") || !strings.Contains(r.stderr, "dropped)") {
		t.Errorf("merge output:\n%s\n%s", r.stdout, r.stderr)
	}
	args = []string{"results", "merge", filepath.Join(dir, "none.jsonl")}
	runBDDL(t, args...).wantCode(t, args, exitMisuse)
}

// TestCheckOutLocked: a second writer to one -o is refused.
func TestCheckOutLocked(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.jsonl")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := fsutil.Lock(f); err != nil {
		t.Skip(err)
	}
	args := []string{"check", "--out", out, "--episode", examplePath("tidying_the_living_room", "poses.jsonl")}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitMisuse)
	if !strings.Contains(r.stderr, "another run is writing") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	for _, bad := range []string{"/dev/null", dir} {
		args := []string{"check", "--out", bad, "--episode", examplePath("tidying_the_living_room", "poses.jsonl")}
		runBDDL(t, args...).wantCode(t, args, exitMisuse)
	}
}

// TestCheckResumeByAbsolutePath: a run resumed with another spelling of
// the same paths skips them; the output keeps the spelling given.
func TestCheckResumeByAbsolutePath(t *testing.T) {
	dir, files := copyEpisodes(t)
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, files[0])
	if err != nil {
		t.Skip(err)
	}
	out := filepath.Join(dir, "out.jsonl")
	runBDDL(t, "check", "--out", out, "--episode", rel)
	r := runBDDL(t, "check", "--out", out, "--episode", files[0])
	if !strings.Contains(r.stderr, "skipping 1 episode already in") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	lines := resultLines(t, out)
	if len(lines) != 1 || lines[0]["episode"] != rel {
		t.Errorf("lines %v, want one naming %s", lines, rel)
	}
}

// TestCheckRetriesErrors: an episode whose recorded result is an error
// is checked again, and the run says how many.
func TestCheckRetriesErrors(t *testing.T) {
	dir, files := copyEpisodes(t)
	out := filepath.Join(dir, "out.jsonl")
	writeFile(t, out, []byte(fmt.Sprintf(`{"episode":%q,"activity":"x","success":false,"error":"disk was unplugged"}`+"\n", files[0])))
	r := runBDDL(t, "check", "--out", out, "--episode", files[0])
	if !strings.Contains(r.stderr, "retrying 1 episode that ended in an error") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	lines := resultLines(t, out)
	if len(lines) != 2 || lines[1]["error"] != nil {
		t.Errorf("lines: %v", lines)
	}
}

// TestCheckSpecialFiles: a FIFO among walked episodes is skipped with a
// note; a symlinked directory of episodes is followed.
func TestCheckSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "real", "ep.jsonl"), readFile(t, examplePath("tidying_the_living_room", "poses.jsonl")))
	os.MkdirAll(filepath.Join(dir, "runs"), 0o755)
	if err := mkfifoForTest(filepath.Join(dir, "runs", "fifo.jsonl")); err != nil {
		t.Skip(err)
	}
	os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "runs", "link"))
	args := []string{"check", "--episode", filepath.Join(dir, "runs")}
	done := make(chan cliResult)
	go func() { done <- runBDDL(t, args...) }()
	select {
	case r := <-done:
		r.wantCode(t, args, exitOK)
		if !strings.Contains(r.stderr, "fifo.jsonl: a FIFO") {
			t.Errorf("no note of the FIFO:\n%s", r.stderr)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("check hung on a FIFO")
	}
}

// TestCheckPlotNames: plots of episodes with one base name in different
// directories do not overwrite each other; a plot that cannot be written
// fails the run.
func TestCheckPlotNames(t *testing.T) {
	dir := t.TempDir()
	ep := readFile(t, examplePath("tidying_the_living_room", "poses.jsonl"))
	writeFile(t, filepath.Join(dir, "runs", "a", "success.jsonl"), ep)
	writeFile(t, filepath.Join(dir, "runs", "b", "success.jsonl"), ep)
	plot := filepath.Join(dir, "plots", "t.svg")
	os.MkdirAll(filepath.Dir(plot), 0o755)
	args := []string{"check", "--plot", plot, "--episode", filepath.Join(dir, "runs")}
	runBDDL(t, args...).wantCode(t, args, exitOK)
	got, _ := filepath.Glob(filepath.Join(dir, "plots", "*.svg"))
	if len(got) != 2 {
		t.Errorf("plots %v, want 2", got)
	}
	args = []string{"check", "--plot", filepath.Join(dir, "nowhere", "t.svg"), "--episode", filepath.Join(dir, "runs")}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	if !strings.Contains(r.stderr, "plot:") {
		t.Errorf("the plot failure is not on stderr:\n%s", r.stderr)
	}
}

// TestCheckStdinAndEmptyShard: "-" reads an episode from standard input;
// a shard that holds no episode says so.
func TestCheckStdinAndEmptyShard(t *testing.T) {
	var out, errw bytes.Buffer
	ep := readFile(t, examplePath("tidying_the_living_room", "poses.jsonl"))
	code := run([]string{"check", "--format", "json", "--episode", "-"}, bytes.NewReader(ep), &out, &errw)
	if code != exitOK || len(jsonResults(t, out.String())) != 1 {
		t.Errorf("stdin: exit %d\n%s\n%s", code, out.String(), errw.String())
	}
	for i := range 8 {
		args := []string{"check", "--shard", fmt.Sprintf("%d/8", i), "--episode", examplePath("tidying_the_living_room", "poses.jsonl")}
		r := runBDDL(t, args...)
		if r.code == exitOK && strings.Contains(r.stderr, "nothing to check") {
			return
		}
	}
	t.Error("no shard of 8 reported an empty shard for one episode")
}

// TestCheckSignalStopsBlockedRead: SIGINT stops a run blocked reading
// --activity from a FIFO nobody writes to.
func TestCheckSignalStopsBlockedRead(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "act.bddl")
	if err := mkfifoForTest(fifo); err != nil {
		t.Skip(err)
	}
	cmd, stderr := bddlProcess(t, "check", "--activity", fifo, "--episode", examplePath("tidying_the_living_room", "poses.jsonl"))
	// Signal only once the run is blocked on the FIFO: a writer's
	// non-blocking open succeeds only when a reader has it open, and the
	// run installs its signal handlers before it reads the activity. A
	// fixed sleep raced the start-up on a loaded machine.
	w := openWhenReaderWaits(t, fifo)
	defer w.Close()
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
		if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
			t.Errorf("exit %d, want %d\n%s", code, exitInterrupted, stderr)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-done:
			t.Errorf("only the second SIGINT stopped it")
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatal("SIGINT twice did not stop a blocked run")
		}
	}
}

// TestCheckConcurrentWriters: while one run writes --out, a second run
// on the same file is refused, and the first run's file stays whole.
func TestCheckConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	for i := range 4 {
		path := filepath.Join(dir, "runs", fmt.Sprintf("ep%d.jsonl", i))
		os.MkdirAll(filepath.Dir(path), 0o755)
		r := runBDDL(t, "episode", "synth", "tidying_the_living_room", "--kind", "poses", "--steps", "20000", "--seed", fmt.Sprint(i+1), "-o", path)
		if r.code != 0 {
			t.Fatal(r.stderr)
		}
	}
	out := filepath.Join(dir, "out.jsonl")
	first, stderr := bddlProcess(t, "check", "--jobs", "1", "--out", out, "--episode", filepath.Join(dir, "runs"))
	// Wait until the first run holds the lock.
	locked := false
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && !locked; time.Sleep(20 * time.Millisecond) {
		f, err := os.OpenFile(out, os.O_RDWR, 0)
		if err != nil {
			continue
		}
		locked = fsutil.Lock(f) != nil
		f.Close()
	}
	if !locked {
		first.Process.Kill()
		t.Fatal("the first run never locked --out")
	}
	args := []string{"check", "--out", out, "--episode", filepath.Join(dir, "runs")}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitMisuse)
	if !strings.Contains(r.stderr, "another run is writing") {
		t.Errorf("second writer: %s", r.stderr)
	}
	first.Wait()
	if code := first.ProcessState.ExitCode(); code != exitFindings && code != exitOK {
		t.Fatalf("first run exited %d: %s", code, stderr)
	}
	if lines := resultLines(t, out); len(lines) != 4 {
		t.Errorf("%d result lines, want 4", len(lines))
	}
}

// TestCheckSmallFlags: --touch-tolerance 0 is a valid tolerance; a
// misspelt activity gets a did-you-mean.
func TestCheckSmallFlags(t *testing.T) {
	ep := examplePath("tidying_the_living_room", "poses.jsonl")
	args := []string{"check", "--touch-tolerance", "0", "--episode", ep}
	if r := runBDDL(t, args...); r.code == exitMisuse {
		t.Errorf("--touch-tolerance 0 refused: %s", r.stderr)
	}
	args = []string{"check", "--activity", "tidying_the_livng_room", "--episode", ep}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitMisuse)
	if !strings.Contains(r.stderr, "did you mean tidying_the_living_room") {
		t.Errorf("no suggestion: %s", r.stderr)
	}
}

// TestCheckExtension: a flag another file adds through checkExtensions
// reaches the checker.
func TestCheckExtension(t *testing.T) {
	saved := checkExtensions
	defer func() { checkExtensions = saved }()
	var called int
	checkExtensions = append(checkExtensions, func(cmd *cobra.Command, o *checkOptions) {
		var on bool
		cmd.Flags().BoolVar(&on, "test-hook", false, "")
		o.prepare = append(o.prepare, func(c *batch.Checker) error {
			if on {
				c.Evaluate = func(ctx context.Context, task *batch.Task) *episode.Result {
					called++
					return batch.DefaultEvaluate(ctx, task)
				}
			}
			return nil
		})
	})
	args := []string{"check", "--test-hook", "--episode", examplePath("tidying_the_living_room", "poses.jsonl")}
	runBDDL(t, args...).wantCode(t, args, exitOK)
	if called != 1 {
		t.Errorf("the hook ran %d times", called)
	}
}

// TestCheckSignalStopsStdin: SIGINT stops a run waiting for an episode
// on standard input.
func TestCheckSignalStopsStdin(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	cmd := exec.Command(os.Args[0], "check", "--episode", "-")
	cmd.Env = append(os.Environ(), "BDDL_TEST_MAIN=1")
	cmd.Stdin = pr
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	waitBlockedOnStdin(t, cmd.Process.Pid)
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
		if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
			t.Errorf("exit %d, want %d\n%s", code, exitInterrupted, stderr.String())
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("one SIGINT did not stop a run blocked on standard input")
	}
}

// openWhenReaderWaits opens fifo for writing as soon as another process
// has opened it for reading, failing after a generous deadline.
func openWhenReaderWaits(t *testing.T, fifo string) *os.File {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			return f
		}
		if time.Now().After(deadline) {
			t.Fatalf("no reader opened %s: %v", fifo, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitBlockedOnStdin waits until a thread of process pid is in a read of
// file descriptor 0 (Linux /proc/PID/task/*/syscall); where /proc does not
// say, it falls back to a long pause.
func waitBlockedOnStdin(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/syscall", pid))
		if err != nil || len(tasks) == 0 {
			time.Sleep(2 * time.Second)
			return
		}
		for _, task := range tasks {
			b, err := os.ReadFile(task)
			if err == nil && bytes.HasPrefix(b, []byte("0 0x0 ")) {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the run never blocked reading standard input")
}
