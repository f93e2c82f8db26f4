package omnigibson

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/fsutil"
)

// Job is one state to convert: an instance of a task, or the template's
// own state, written to Out.
type Job struct {
	Conv     *Converter
	Instance string // "" converts the template's own state
	Template string
	Out      string
}

// Source is the file the job's state is read from: the instance, else
// the template.
func (j *Job) Source() string {
	if j.Instance == "" {
		return j.Template
	}
	return j.Instance
}

// Run converts the job's state and writes it to Out as a one-step
// episode.
func (j *Job) Run() (*Report, error) {
	var h *episode.Header
	var rep *Report
	var err error
	if j.Instance == "" {
		h, rep, err = j.Conv.ConvertTemplate()
	} else {
		in, rerr := ReadInstance(j.Instance)
		if rerr != nil {
			return nil, rerr
		}
		h, rep, err = j.Conv.Convert(in)
	}
	if err != nil {
		return nil, err
	}
	return rep, WriteEpisode(j.Out, h)
}

// AssignOutputs names each job's episode file: out itself for a single
// state (unless out is a directory or ends in a separator), else
// out/<stem>.jsonl, creating the directory. Two states that would be
// written to the same file are an error.
func AssignOutputs(jobs []*Job, out string) error {
	info, err := os.Stat(out)
	isDir := err == nil && info.IsDir()
	if len(jobs) == 1 && !isDir && !strings.HasSuffix(out, string(filepath.Separator)) {
		jobs[0].Out = out
		return nil
	}
	if err == nil && !isDir {
		return fmt.Errorf("-o %s: %d states to convert need a directory, and %s is a file", out, len(jobs), out)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("-o: %v", err)
	}
	seen := map[string]string{}
	for _, j := range jobs {
		src := j.Source()
		name := Stem(src) + ".jsonl"
		if prev, dup := seen[name]; dup {
			return fmt.Errorf("%s and %s would both be written to %s", prev, src, filepath.Join(out, name))
		}
		seen[name] = src
		j.Out = filepath.Join(out, name)
	}
	return nil
}

// WriteEpisode writes a one-step episode of header h; a file it replaces
// is replaced atomically, keeping its mode and owner.
func WriteEpisode(path string, h *episode.Header) error {
	var buf bytes.Buffer
	w, err := episode.NewWriter(&buf, h)
	if err == nil {
		err = w.WriteStep(&episode.Step{Step: 0})
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if _, err := os.Lstat(path); err == nil {
		return fsutil.WriteFileAtomic(path, buf.Bytes())
	}
	tmp, err := fsutil.CreateTempBeside(path)
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	_, err = tmp.Write(buf.Bytes())
	if err = errors.Join(err, tmp.Chmod(0o644), tmp.Close()); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return os.Rename(tmp.Name(), path)
}

// HasRobot reports whether the template has start poses for the robot.
func (t *Template) HasRobot(name string) bool {
	for _, r := range t.Robots {
		if r.Robot == name || r.Robot == "" { // "": available_tasks.yaml's pose, for any robot
			return true
		}
	}
	return false
}

// RobotNames lists the robots the template has start poses for, in file
// order, comma separated.
func (t *Template) RobotNames() string {
	names := make([]string, len(t.Robots))
	for i, r := range t.Robots {
		names[i] = r.Robot
	}
	return strings.Join(names, ", ")
}

// Summary sums up the reports of a conversion run.
type Summary struct {
	States, Boxes, BoxesExact, BoxesEstimated, Joints, JointsAssumed, NoSize int
}

// Add counts a converted state's report.
func (s *Summary) Add(r *Report) {
	s.States++
	s.Boxes += r.Boxes
	s.BoxesExact += r.BoxesExact
	s.BoxesEstimated += r.BoxesEstimated
	s.Joints += r.Joints
	s.JointsAssumed += r.JointsAssumed
	s.NoSize += len(r.NoSize)
}

// WriteText prints the summary for people: how many of total states were
// converted to where, how their boxes and joints were made, and how many
// failed.
func (s *Summary) WriteText(w io.Writer, total, failed int, where string) {
	fmt.Fprintf(w, "converted %d of %d state%s to %s\n", s.States, total, plural(total), where)
	if s.States == 0 {
		return
	}
	fmt.Fprintf(w, "boxes: %d (%d exact offsets, %d estimated from supports, %d centred on root links); %d objects without a model size\n",
		s.Boxes, s.BoxesExact, s.BoxesEstimated, s.Boxes-s.BoxesExact-s.BoxesEstimated, s.NoSize)
	fmt.Fprintf(w, "articulated objects: %d (%d with assumed joint limits)\n", s.Joints, s.JointsAssumed)
	if failed > 0 {
		fmt.Fprintf(w, "%d state%s failed (see above)\n", failed, plural(failed))
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
