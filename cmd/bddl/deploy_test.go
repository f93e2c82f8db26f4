package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/openbddl/bddl/internal/jobs/batch"
)

const deployDir = "../../deploy"

// k8sJob is the part of a Kubernetes Job the deploy example must get
// right.
type k8sJob struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Spec       struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    int    `yaml:"completions"`
		Parallelism    int    `yaml:"parallelism"`
		Template       struct {
			Spec struct {
				RestartPolicy string `yaml:"restartPolicy"`
				Containers    []struct {
					Image        string   `yaml:"image"`
					Command      []string `yaml:"command"`
					Args         []string `yaml:"args"`
					VolumeMounts []struct {
						Name string `yaml:"name"`
					} `yaml:"volumeMounts"`
				} `yaml:"containers"`
				Volumes []struct {
					Name string `yaml:"name"`
				} `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// runCapturing runs a shell script with bddl (and GNU parallel) replaced
// by functions that record their arguments, and returns the bddl
// invocations.
func runCapturing(t *testing.T, script string, env ...string) [][]string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	dir := t.TempDir()
	capture := filepath.Join(dir, "capture")
	prelude := `bddl() { printf '%s\037' "$@" >> "$CAPTURE"; printf '\036' >> "$CAPTURE"; }
export -f bddl
parallel() {
  local template
  for template; do :; done
  while read -r i; do bash -c "${template//\{\}/$i}" || return 1; done
}
`
	cmd := exec.Command(bash, "-c", prelude+script, "script")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "CAPTURE="+capture), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the script failed: %v\n%s", err, stderr.String())
	}
	data, _ := os.ReadFile(capture)
	var out [][]string
	for _, rec := range strings.Split(strings.TrimSuffix(string(data), "\036"), "\036") {
		if rec == "" {
			continue
		}
		out = append(out, strings.Split(strings.TrimSuffix(rec, "\037"), "\037"))
	}
	return out
}

// checkInvocation verifies that args is a bddl command line whose
// command and flags exist, and returns its --shard and -o values.
func checkInvocation(t *testing.T, where string, args []string) (shard batch.Shard, out string) {
	t.Helper()
	root := newRootCmd(streams{in: strings.NewReader(""), out: &bytes.Buffer{}, err: &bytes.Buffer{}})
	cmd, rest, err := root.Find(args)
	if err != nil {
		t.Fatalf("%s: bddl %s: %v", where, strings.Join(args, " "), err)
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Fatalf("%s: bddl %s: %v", where, strings.Join(args, " "), err)
	}
	if f := cmd.Flags().Lookup("shard"); f != nil && f.Value.String() != "" {
		if shard, err = batch.ParseShard(f.Value.String()); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
	}
	if f := cmd.Flags().Lookup("out"); f != nil {
		out = f.Value.String()
	}
	return shard, out
}

func TestDeployKubernetes(t *testing.T) {
	path := filepath.Join(deployDir, "kubernetes", "bddl-check-job.yaml")
	var job k8sJob
	dec := yaml.NewDecoder(bytes.NewReader(readFile(t, path)))
	dec.KnownFields(false)
	if err := dec.Decode(&job); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	s := job.Spec
	if job.APIVersion != "batch/v1" || job.Kind != "Job" || s.CompletionMode != "Indexed" || s.Completions < 2 ||
		s.Template.Spec.RestartPolicy != "Never" || len(s.Template.Spec.Containers) != 1 {
		t.Fatalf("%s is not an Indexed Job: %+v", path, job)
	}
	c := s.Template.Spec.Containers[0]
	volumes := map[string]bool{}
	for _, v := range s.Template.Spec.Volumes {
		volumes[v.Name] = true
	}
	for _, m := range c.VolumeMounts {
		if !volumes[m.Name] {
			t.Errorf("volume mount %s has no volume", m.Name)
		}
	}
	if len(c.Command) != 2 || c.Command[1] != "-c" || len(c.Args) != 1 {
		t.Fatalf("the container must run one shell script: %v %v", c.Command, c.Args)
	}
	outs := map[string]bool{}
	for i := range s.Completions {
		calls := runCapturing(t, c.Args[0], fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i))
		if len(calls) != 1 {
			t.Fatalf("index %d: %d bddl calls", i, len(calls))
		}
		shard, out := checkInvocation(t, path, calls[0])
		if shard.Index != i || shard.Count != s.Completions {
			t.Errorf("index %d runs shard %v of a %d-completion Job", i, shard, s.Completions)
		}
		outs[out] = true
	}
	if len(outs) != s.Completions {
		t.Errorf("the shards share result files: %v", outs)
	}
}

func TestDeploySlurm(t *testing.T) {
	path := filepath.Join(deployDir, "slurm", "bddl-check.sbatch")
	script := string(readFile(t, path))
	if !strings.HasPrefix(script, "#!/bin/bash\n") || !strings.Contains(script, "#SBATCH --array=0-7\n") {
		t.Fatalf("%s: not a job array over 0-7", path)
	}
	outs := map[string]bool{}
	for i := range 8 {
		calls := runCapturing(t, script, fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", i), "SLURM_ARRAY_TASK_COUNT=8", "SLURM_CPUS_PER_TASK=4")
		if len(calls) != 1 {
			t.Fatalf("task %d: %d bddl calls", i, len(calls))
		}
		shard, out := checkInvocation(t, path, calls[0])
		if shard.Index != i || shard.Count != 8 {
			t.Errorf("task %d runs shard %v", i, shard)
		}
		outs[out] = true
	}
	if len(outs) != 8 {
		t.Errorf("the tasks share result files: %v", outs)
	}
}

func TestDeployParallel(t *testing.T) {
	path, _ := filepath.Abs(filepath.Join(deployDir, "parallel", "bddl-check.sh"))
	script := fmt.Sprintf("set -- 3 'runs/**/*.jsonl.gz' --activities defs\nsource %q", path)
	calls := runCapturing(t, script)
	if len(calls) != 4 {
		t.Fatalf("%d bddl calls, want 3 shards and a merge: %v", len(calls), calls)
	}
	for i, call := range calls[:3] {
		shard, out := checkInvocation(t, path, call)
		if shard.Index != i || shard.Count != 3 || out != fmt.Sprintf("results/results-%d.jsonl", i) {
			t.Errorf("call %d: shard %v out %s: %v", i, shard, out, call)
		}
	}
	if merge := calls[3]; merge[0] != "results" || merge[1] != "merge" {
		t.Errorf("the last call is not a merge: %v", merge)
	} else {
		checkInvocation(t, path, merge)
	}
}

func TestDeployContainerfile(t *testing.T) {
	src := string(readFile(t, filepath.Join(deployDir, "Containerfile")))
	if !strings.Contains(src, "go build") || !strings.Contains(src, "./cmd/bddl") || !strings.Contains(src, "/usr/local/bin/bddl") {
		t.Errorf("Containerfile does not build and install bddl:\n%s", src)
	}
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		switch strings.Fields(line)[0] {
		case "FROM", "WORKDIR", "COPY", "RUN", "ENTRYPOINT", "ENV", "ARG", "CMD":
		default:
			t.Errorf("Containerfile: unknown instruction in %q", line)
		}
	}
}
