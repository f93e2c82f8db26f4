package libero

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
)

// EpisodeFormat is the header's format tag of a LIBERO episode.
const EpisodeFormat = "libero-episode"

// Header is the first line of a LIBERO episode (JSON Lines).
type Header struct {
	Format  string `json:"format"`  // "libero-episode"
	Version int    `json:"version"` // 1
	// Definition is the task's .bddl file, relative to the episode's
	// directory unless absolute.
	Definition string `json:"definition"`
	Problem    string `json:"problem,omitempty"`
	Language   string `json:"language,omitempty"`
	Seed       *int64 `json:"seed,omitempty"`
	Source     string `json:"source,omitempty"` // "bddl sample", "libero_recorder", ...
}

// Step is the simulator state at one step, as LIBERO's predicates read it
// (object_states/base_object_states.py).
type Step struct {
	Step int `json:"step"`
	// Bodies are the root bodies of objects and fixtures by name:
	// sim.data.body_xpos and body_xquat (w x y z).
	Bodies map[string]Body `json:"bodies"`
	// Sites are the sites regions name, by reference (TARGET_NAME):
	// get_site_xpos, get_site_xmat (row-major) and the site's size.
	Sites map[string]SiteBox `json:"sites"`
	// Joints are joint positions (qpos) by object or site name, in the
	// order of the object's joints (or the site's, object_sites_dict).
	Joints map[string][]float64 `json:"joints"`
	// Contacts are pairs of object or fixture names in contact.
	Contacts [][2]string `json:"contacts"`
}

// Body is a body's world pose.
type Body struct {
	Pos  [3]float64 `json:"pos"`
	Quat [4]float64 `json:"quat"`
}

// SiteBox is a site's world pose and half sizes.
type SiteBox struct {
	Pos  [3]float64 `json:"pos"`
	Mat  [9]float64 `json:"mat"`
	Size [3]float64 `json:"size"`
}

// maxLine bounds one line of an episode.
const maxLine = 64 << 20

// EpisodeReader streams a LIBERO episode step by step, so an episode of
// any length is checked in constant memory. Errors name the line and field.
type EpisodeReader struct {
	Header Header
	sc     *bufio.Scanner
	name   string
	line   int
	last   int
	n      int
}

// NewEpisodeReader reads the header of a LIBERO episode.
func NewEpisodeReader(r io.Reader, name string) (*EpisodeReader, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	er := &EpisodeReader{sc: sc, name: name}
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s:1: %v", name, err)
		}
		return nil, fmt.Errorf("%s: empty episode", name)
	}
	er.line = 1
	if err := json.Unmarshal(sc.Bytes(), &er.Header); err != nil {
		return nil, fmt.Errorf("%s:1: header: %v", name, err)
	}
	if er.Header.Format != EpisodeFormat {
		return nil, fmt.Errorf("%s:1: header: format is %q, want %q", name, er.Header.Format, EpisodeFormat)
	}
	return er, nil
}

// Next reads the next step into s; it returns io.EOF after the last.
func (er *EpisodeReader) Next(s *Step) error {
	for er.sc.Scan() {
		er.line++
		b := er.sc.Bytes()
		if len(b) == 0 {
			continue
		}
		*s = Step{}
		if err := json.Unmarshal(b, s); err != nil {
			return fmt.Errorf("%s:%d: step: %v", er.name, er.line, err)
		}
		if err := s.check(); err != nil {
			return fmt.Errorf("%s:%d: step %d: %v", er.name, er.line, s.Step, err)
		}
		if er.n > 0 && s.Step <= er.last {
			return fmt.Errorf("%s:%d: step %d does not follow step %d", er.name, er.line, s.Step, er.last)
		}
		er.last = s.Step
		er.n++
		return nil
	}
	if err := er.sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %v", er.name, er.line+1, err)
	}
	return io.EOF
}

// ReadEpisode reads a whole LIBERO episode: header and steps.
func ReadEpisode(r io.Reader, name string) (Header, []Step, error) {
	er, err := NewEpisodeReader(r, name)
	if err != nil {
		return Header{}, nil, err
	}
	var steps []Step
	for {
		var s Step
		if err := er.Next(&s); err == io.EOF {
			return er.Header, steps, nil
		} else if err != nil {
			return er.Header, nil, err
		}
		steps = append(steps, s)
	}
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

func (s *Step) check() error {
	for n, b := range s.Bodies {
		if !finite(b.Pos[:]...) || !finite(b.Quat[:]...) {
			return fmt.Errorf("bodies.%s: not a finite number", n)
		}
	}
	for n, b := range s.Sites {
		if !finite(b.Pos[:]...) || !finite(b.Mat[:]...) || !finite(b.Size[:]...) {
			return fmt.Errorf("sites.%s: not a finite number", n)
		}
		for _, v := range b.Size {
			if v < 0 {
				return fmt.Errorf("sites.%s.size: negative", n)
			}
		}
	}
	for n, q := range s.Joints {
		if !finite(q...) {
			return fmt.Errorf("joints.%s: not a finite number", n)
		}
	}
	return nil
}

// WriteEpisode writes a header and steps as JSON Lines.
func WriteEpisode(w io.Writer, h Header, steps []Step) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(h); err != nil {
		return err
	}
	for i := range steps {
		if err := enc.Encode(&steps[i]); err != nil {
			return err
		}
	}
	return nil
}

// Schema is the JSON Schema of a LIBERO episode's lines.
const Schema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://github.com/openbddl/bddl/schemas/libero-episode.schema.json",
  "title": "LIBERO episode (JSON Lines: a header line, then one line per step)",
  "oneOf": [
    {"title": "header", "type": "object", "required": ["format", "version", "definition"],
     "properties": {
       "format": {"const": "libero-episode"},
       "version": {"const": 1},
       "definition": {"type": "string", "description": "the task's .bddl file, relative to the episode's directory unless absolute"},
       "problem": {"type": "string"}, "language": {"type": "string"},
       "seed": {"type": "integer"}, "source": {"type": "string"}}},
    {"title": "step", "type": "object", "required": ["step", "bodies"],
     "properties": {
       "step": {"type": "integer", "minimum": 0},
       "bodies": {"type": "object", "additionalProperties": {"type": "object", "required": ["pos", "quat"],
         "properties": {"pos": {"$ref": "#/$defs/vec3"}, "quat": {"type": "array", "items": {"type": "number"}, "minItems": 4, "maxItems": 4, "description": "w x y z"}}}},
       "sites": {"type": "object", "additionalProperties": {"type": "object", "required": ["pos", "mat", "size"],
         "properties": {"pos": {"$ref": "#/$defs/vec3"}, "mat": {"type": "array", "items": {"type": "number"}, "minItems": 9, "maxItems": 9, "description": "row-major rotation (get_site_xmat)"}, "size": {"$ref": "#/$defs/vec3"}}}},
       "joints": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "number"}}},
       "contacts": {"type": "array", "items": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2}}}}
  ],
  "$defs": {"vec3": {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}}
}
`
