package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/suggest"
)

// FileName is the project file found, as ruff and uv find theirs,
// in the working directory or the nearest parent that has one.
const FileName = "bddl.toml"

// EnvVar names a project file to use instead of searching for one;
// "none" uses none.
const EnvVar = "BDDL_CONFIG"

// fileLimit bounds the read of a project file.
const fileLimit = 1 << 20

// Project is a parsed bddl.toml: the knowledge base, the activity
// library, and flag defaults, for every command ([defaults]) or one
// ([defaults.check], [defaults.episode.convert], ...). Paths are
// relative to the file.
type Project struct {
	Path       string // absolute
	KB         string
	Activities string
	// Tables maps a command path ("" for [defaults], "check" for
	// [defaults.check], "episode convert") to flag defaults.
	Tables map[string]map[string]any
}

// Find returns the project file for dir: $BDDL_CONFIG, else the
// first bddl.toml in dir or a parent; nil when there is none.
func Find(dir string) (*Project, error) {
	if env, ok := os.LookupEnv(EnvVar); ok && env != "" {
		if env == "none" {
			return nil, nil
		}
		return Read(env)
	}
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, nil
		}
		dir = wd
	}
	dir, _ = filepath.Abs(dir)
	for {
		p := filepath.Join(dir, FileName)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			return Read(p)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, nil
		}
		dir = parent
	}
}

// Read parses a project file; an unknown key is an error naming
// the file and key.
func Read(path string) (*Project, error) {
	src, err := fsutil.ReadFile(path, fileLimit)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// Parse parses the text of a project file read from path.
func Parse(path string, src []byte) (*Project, error) {
	var err error
	var raw map[string]any
	if _, err := toml.Decode(string(src), &raw); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	abs, _ := filepath.Abs(path)
	p := &Project{Path: abs, Tables: map[string]map[string]any{}}
	rel := func(key string, v any) (string, error) {
		s, ok := v.(string)
		if !ok || s == "" {
			return "", fmt.Errorf("%s: %s must be a path (a string)", path, key)
		}
		if !filepath.IsAbs(s) {
			s = filepath.Join(filepath.Dir(abs), s)
		}
		return s, nil
	}
	for key, v := range raw {
		switch key {
		case "kb":
			if p.KB, err = rel(key, v); err != nil {
				return nil, err
			}
		case "activities":
			if p.Activities, err = rel(key, v); err != nil {
				return nil, err
			}
		case "defaults":
			t, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s: [defaults] must be a table of flag = value", path)
			}
			p.addTables("", t)
		default:
			return nil, fmt.Errorf("%s: unknown key %q%s (kb, activities or [defaults])", path, key,
				suggest.DidYouMean(key, []string{"kb", "activities", "defaults"}))
		}
	}
	return p, nil
}

// addTables files [defaults] and its nested command tables
// ([defaults.check], [defaults.episode.convert]) under their command
// paths ("" for [defaults] itself).
func (p *Project) addTables(name string, t map[string]any) {
	flags := map[string]any{}
	for k, v := range t {
		if sub, ok := v.(map[string]any); ok {
			p.addTables(strings.TrimSpace(name+" "+k), sub)
			continue
		}
		flags[k] = v
	}
	if len(flags) > 0 {
		p.Tables[name] = flags
	}
}

// TableName is the TOML name of a command path's table.
func TableName(t string) string {
	if t == "" {
		return "defaults"
	}
	return "defaults." + strings.ReplaceAll(t, " ", ".")
}
