package robolab

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

// Verdict is RoboLab's own judgement of an episode: one line of its
// episode_results.jsonl (the fields read; the rest are ignored).
type Verdict struct {
	EnvName     string   `json:"env_name"`
	RunName     string   `json:"run_name"`
	Run         *int     `json:"run"`
	Episode     *int     `json:"episode"`
	EnvID       *int     `json:"env_id"`
	Success     *bool    `json:"success"`
	Score       *float64 `json:"score"`
	Reason      *string  `json:"reason"`
	EpisodeStep *int64   `json:"episode_step"`
	Duration    *float64 `json:"duration"`
	DT          *float64 `json:"dt"`
	// Line is the line of the results file.
	Line int `json:"-"`
}

// Results are the lines of an episode_results.jsonl, by episode.
type Results struct {
	File  string
	byRun map[runKey]*Verdict
	byEp  map[epKey]*Verdict
	envs  map[string]bool
}

type runKey struct {
	env        string
	run, envID int
}

type epKey struct {
	env     string
	episode int
}

// ResultsFileName is the name RoboLab gives its results file.
const ResultsFileName = "episode_results.jsonl"

// FindResults looks for RoboLab's results file of a run file: beside it,
// else in its parent directory (RoboLab writes run files to
// <output>/<env_name>/ and the results to <output>/). "" when neither.
func FindResults(runPath string) string {
	dir := filepath.Dir(runPath)
	for _, d := range []string{dir, filepath.Dir(dir)} {
		p := filepath.Join(d, ResultsFileName)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// maxResultLine bounds one line of a results file.
const maxResultLine = 16 << 20

var runNameIndex = regexp.MustCompile(`_(\d+)$`)

// LoadResults reads a RoboLab episode_results.jsonl. A later line for the
// same episode replaces an earlier one (a resumed run).
func LoadResults(path string) (*Results, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	return ReadResults(f, path)
}

// ReadResults reads RoboLab results lines from r; name is used in errors.
func ReadResults(r io.Reader, path string) (*Results, error) {
	rs := &Results{File: path, byRun: map[runKey]*Verdict{}, byEp: map[epKey]*Verdict{}, envs: map[string]bool{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxResultLine)
	for line := 1; sc.Scan(); line++ {
		text := sc.Bytes()
		if len(trimSpace(text)) == 0 {
			continue
		}
		v := &Verdict{Line: line}
		if err := json.Unmarshal(text, v); err != nil {
			return nil, fmt.Errorf("%s:%d: not a RoboLab result line: %v", path, line, err)
		}
		if v.EnvName == "" || v.Success == nil {
			return nil, fmt.Errorf("%s:%d: not a RoboLab result line: env_name and success are required", path, line)
		}
		rs.envs[v.EnvName] = true
		run := v.Run
		if run == nil {
			if m := runNameIndex.FindStringSubmatch(v.RunName); m != nil {
				if k, err := strconv.Atoi(m[1]); err == nil {
					run = &k
				}
			}
		}
		if run != nil {
			envID := 0
			if v.EnvID != nil {
				envID = *v.EnvID
			}
			rs.byRun[runKey{v.EnvName, *run, envID}] = v
		}
		if v.Episode != nil {
			rs.byEp[epKey{v.EnvName, *v.Episode}] = v
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s: a line longer than %d MiB: not a results file", path, maxResultLine>>20)
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return rs, nil
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// Find returns RoboLab's verdict on a demo of a run: the line of the same
// env_name, run and env_id, else the line of its global episode number
// (run × number of environments + env_id). When the file's env_name is
// not in the results and they hold a single environment, that one is
// taken. Nil when there is none.
func (rs *Results) Find(r *Run, d Demo) *Verdict {
	if rs == nil || !r.HasIndex {
		return nil
	}
	env := r.EnvName
	if !rs.envs[env] && len(rs.envs) == 1 {
		for e := range rs.envs {
			env = e
		}
	}
	if v := rs.byRun[runKey{env, r.Index, d.EnvID}]; v != nil {
		return v
	}
	if v := rs.byEp[epKey{env, r.Index*len(r.demos) + d.EnvID}]; v != nil && (v.EnvID == nil || *v.EnvID == d.EnvID) {
		return v
	}
	return nil
}

// Agreement classifies our verdict against RoboLab's.
type Agreement string

// The agreements.
const (
	BothSucceed Agreement = "both_succeed"
	BothFail    Agreement = "both_fail"
	OnlyRoboLab Agreement = "only_robolab"
	OnlyBDDL    Agreement = "only_bddl"
	// NotCompared is a demo whose recording we could not read in full:
	// our "failure" is an error, not a verdict to compare with RoboLab's.
	NotCompared Agreement = "not_compared"
)

// Agree classifies two verdicts.
func Agree(ours, theirs bool) Agreement {
	switch {
	case ours && theirs:
		return BothSucceed
	case ours:
		return OnlyBDDL
	case theirs:
		return OnlyRoboLab
	}
	return BothFail
}

// Text is the agreement for people: "only RoboLab".
func (a Agreement) Text() string {
	switch a {
	case BothSucceed:
		return "both succeed"
	case BothFail:
		return "both fail"
	case OnlyRoboLab:
		return "only RoboLab"
	case OnlyBDDL:
		return "only BDDL"
	case NotCompared:
		return "not compared (BDDL error)"
	}
	return string(a)
}
