package libero

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/fsutil"
)

// IsEpisodeFile reports whether the file's first line is a LIBERO
// header (gzip-compressed when its name ends in .gz).
func IsEpisodeFile(path string) bool {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var in io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return false
		}
		defer zr.Close()
		in = zr
	}
	line, _ := bufio.NewReader(io.LimitReader(in, 4096)).ReadString('\n')
	return strings.Contains(line, `"`+EpisodeFormat+`"`)
}

// FileCheck says how CheckFile checks an episode file.
type FileCheck struct {
	// Definition is the definition to check against; empty: the one the
	// episode's header names (relative to the episode's directory).
	Definition string
	// Stdin is read for a Definition of "-".
	Stdin io.Reader
	// Diagnostics receives the definition's warnings as text.
	Diagnostics io.Writer
	CheckOptions
}

// CheckFile checks one LIBERO episode file (gzip-compressed when its name
// ends in .gz) against its definition. The report names the activity as
// every record names one: the task (TaskName), not its path.
func CheckFile(path string, o FileCheck) (Report, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return Report{}, err
	}
	defer f.Close()
	var in io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return Report{}, fmt.Errorf("%s: %v", path, err)
		}
		defer zr.Close()
		in = zr
	}
	er, err := NewEpisodeReader(in, path)
	if err != nil {
		return Report{}, err
	}
	def := o.Definition
	if def == "" {
		def = er.Header.Definition
		if !filepath.IsAbs(def) {
			def = filepath.Join(filepath.Dir(path), def)
		}
	}
	src, err := fsutil.ReadArg(def, o.Stdin, fsutil.DefinitionLimit)
	if err != nil {
		return Report{}, fmt.Errorf("%s: definition: %v", path, err)
	}
	p, diags := bddl.Options{Mode: bddl.Reference, Dialect: bddl.DialectLibero}.ParseProblem(def, src)
	if o.Diagnostics != nil {
		diags.WriteText(o.Diagnostics)
	}
	if diags.HasErrors() {
		return Report{}, fmt.Errorf("%s: the definition %s has errors", path, def)
	}
	task := Resolve(p)
	c := NewCheckerOptions(task, o.CheckOptions)
	var step Step
	for {
		if err := er.Next(&step); err == io.EOF {
			break
		} else if err != nil {
			return Report{}, err
		}
		c.Step(&step)
	}
	r := c.Report()
	r.InitLiterals = len(task.InitAtoms())
	r.Episode, r.Activity, r.Definition = path, TaskName(def), def
	return r, nil
}

// TaskName is a LIBERO task's name: its definition's file name without
// .bddl (KITCHEN_SCENE3_turn_on_the_stove).
func TaskName(def string) string {
	return strings.TrimSuffix(filepath.Base(def), filepath.Ext(def))
}
