package view

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/fsutil"
)

// lineLimit bounds one line of an episode read for the page.
const lineLimit = episode.MaxLineBytes

// Episode is the page's data and what reading the episode learnt
// beside it.
type Episode struct {
	Data
	activityRef string
	scene       string // the knowledge-base scene a sample was laid out in
	boundScene  map[string]bool
}

// ReadEpisode reads the objects' boxes at every step of an episode
// file (gzip-compressed when it ends in .gz) and keeps at most max
// frames, evenly spaced, and the last. An oriented box (obb) is kept as
// its corners, preferred to an axis-aligned one as the tighter.
func ReadEpisode(path string, max int) (*Episode, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		defer gz.Close()
		r = gz
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), lineLimit)
	type objFields struct {
		AABB   *[6]float64    `json:"aabb"`
		OBB    *[8][3]float64 `json:"obb"`
		Exists *bool          `json:"exists"`
		Room   *string        `json:"room"`
	}
	var header struct {
		Version  *int                  `json:"bddl_episode"`
		Format   string                `json:"format"`
		Activity string                `json:"activity"`
		Steps    int                   `json:"steps"`
		Objects  map[string]*objFields `json:"objects"`
		Meta     struct {
			Sampler *struct {
				Scene        string            `json:"scene"`
				Source       string            `json:"scene_source"`
				SceneObjects map[string]string `json:"scene_objects"`
			} `json:"sampler"`
		} `json:"meta"`
	}
	d := &Episode{}
	index := map[string]int{}
	type objState struct {
		aabb, obb []float64
		gone      bool
	}
	var cur []objState
	line := 0
	apply := func(objs map[string]*objFields) {
		// Sorted, so the page is the same on every run.
		names := make([]string, 0, len(objs))
		for name := range objs {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			o := objs[name]
			i, ok := index[name]
			if !ok {
				i = len(d.Objects)
				index[name] = i
				d.Objects = append(d.Objects, Object{Name: name})
				cur = append(cur, objState{})
			}
			if o == nil {
				continue
			}
			if o.Room != nil && d.Objects[i].Room == "" {
				d.Objects[i].Room = *o.Room
			}
			if o.AABB != nil {
				cur[i].aabb = o.AABB[:]
			}
			if o.OBB != nil {
				c := make([]float64, 0, 24)
				for _, p := range o.OBB {
					c = append(c, p[:]...)
				}
				cur[i].obb = c
			}
			if o.Exists != nil {
				cur[i].gone = !*o.Exists
			}
		}
	}
	snapshot := func(step int64) Frame {
		fr := Frame{Step: step, Boxes: make([][]float64, len(cur))}
		for i, s := range cur {
			switch {
			case s.gone:
			case s.obb != nil:
				fr.Boxes[i] = s.obb
			case s.aabb != nil:
				fr.Boxes[i] = s.aabb
			}
		}
		return fr
	}
	var all []Frame
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if line == 1 {
			if err := json.Unmarshal(b, &header); err != nil {
				return nil, fmt.Errorf("%s:1: not an episode: the header is not a JSON object of the episode format: %w", path, err)
			}
			if header.Format == "libero-episode" {
				return nil, fmt.Errorf("%s: a LIBERO episode records body poses, not boxes, so view cannot draw it (`bddl check` reads it)", path)
			}
			if header.Version == nil {
				return nil, fmt.Errorf("%s:1: not an episode: the header has no \"bddl_episode\" field (see docs/episode-format.md)", path)
			}
			d.activityRef = header.Activity
			if s := header.Meta.Sampler; s != nil {
				d.Sample = true
				if s.Source == "kb" {
					d.scene = s.Scene
				}
				d.boundScene = map[string]bool{}
				for _, v := range s.SceneObjects {
					d.boundScene[v] = true
				}
			}
			apply(header.Objects)
			continue
		}
		var step struct {
			Step    *int64                `json:"step"`
			Objects map[string]*objFields `json:"objects"`
		}
		if err := json.Unmarshal(b, &step); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		apply(step.Objects)
		n := int64(len(all))
		if step.Step != nil {
			n = *step.Step
		}
		all = append(all, snapshot(n))
		if len(all) > 4*max {
			all = thin(all, max)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", path, line+1, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("%s: not an episode: the file is empty", path)
	}
	if len(all) == 0 {
		all = append(all, snapshot(0))
	}
	d.Steps = int(all[len(all)-1].Step) + 1
	d.Frames = thin(all, max)
	// Objects that appeared later have no entry in earlier frames.
	for i := range d.Frames {
		for len(d.Frames[i].Boxes) < len(d.Objects) {
			d.Frames[i].Boxes = append(d.Frames[i].Boxes, nil)
		}
	}
	return d, nil
}

// thin keeps at most max frames, evenly spaced, always the first and
// the last.
func thin(fs []Frame, max int) []Frame {
	if len(fs) <= max {
		return fs
	}
	out := make([]Frame, 0, max)
	for k := 0; k < max; k++ {
		out = append(out, fs[k*(len(fs)-1)/(max-1)])
	}
	return out
}

// ActivityRef is the activity the episode's header names.
func (e *Episode) ActivityRef() string { return e.activityRef }
