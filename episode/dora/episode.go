package dora

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/openbddl/bddl/episode/recording"
	"github.com/openbddl/bddl/internal/fsutil"
)

// The files of an episode folder.
const (
	MetadataFile   = "metadata.json"
	AnnotationFile = "bddl_annotation.json"
	HumanFile      = "human_annotation.json"
	// BaseStream and StateStream are the streams the agent's base pose
	// and (with a map) its gripper come from by default.
	BaseStream  = "observation.base_state"
	StateStream = "observation.state"
)

const maxMetadata = 16 << 20

// Episode is one episode folder.
type Episode struct {
	Dir string
	// Metadata is metadata.json as written.
	Metadata json.RawMessage
	// Streams are the data columns of the Parquet files present (the
	// file names without .parquet), sorted; images included, never read.
	Streams []string
}

// IsImage reports whether a stream holds images (never read).
func IsImage(stream string) bool { return strings.HasPrefix(stream, "observation.images.") }

// OpenEpisode reads an episode folder's metadata.json and lists its
// streams.
func OpenEpisode(dir string) (*Episode, error) {
	meta := filepath.Join(dir, MetadataFile)
	data, err := fsutil.ReadFile(meta, maxMetadata)
	if err != nil {
		return nil, err
	}
	if !json.Valid(data) {
		return nil, &Error{File: meta, Row: -1, Msg: "not valid JSON"}
	}
	e := &Episode{Dir: dir, Metadata: json.RawMessage(data)}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, ent := range ents {
		if n, ok := strings.CutSuffix(ent.Name(), ".parquet"); ok && ent.Type().IsRegular() {
			e.Streams = append(e.Streams, n)
		}
	}
	slices.Sort(e.Streams)
	return e, nil
}

// Has reports whether the episode has a stream.
func (e *Episode) Has(stream string) bool {
	_, ok := slices.BinarySearch(e.Streams, stream)
	return ok
}

// Open opens one of the episode's streams.
func (e *Episode) Open(stream string) (*StreamFile, error) {
	if IsImage(stream) {
		return nil, fmt.Errorf("%s: an image stream is never read", stream)
	}
	return OpenStream(filepath.Join(e.Dir, stream+".parquet"), stream)
}

// IsEpisodeDir reports whether dir holds a metadata.json.
func IsEpisodeDir(dir string) bool {
	info, err := os.Stat(filepath.Join(dir, MetadataFile))
	return err == nil && info.Mode().IsRegular()
}

// Find lists the episode folders of the paths given: an episode folder,
// its metadata.json, or a folder (a session, a tree of sessions) walked
// for episode folders; in order, each once.
func Find(paths []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(d string) {
		if k, _ := filepath.Abs(d); !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			if filepath.Base(p) != MetadataFile {
				return nil, fmt.Errorf("%s: not a Dora-record episode folder, session or metadata.json", p)
			}
			add(filepath.Dir(p))
			continue
		}
		if IsEpisodeDir(p) {
			add(p)
			continue
		}
		n := 0
		err = fsutil.Walk(p, fsutil.WalkOptions{Match: func(name string) bool { return name == MetadataFile }}, func(m string) error {
			add(filepath.Dir(m))
			n++
			return nil
		})
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, fmt.Errorf("%s: no Dora-record episode (a folder with metadata.json) under it", p)
		}
	}
	return out, nil
}

// Join makes the episode's joined stream: the agent's base pose from
// observation.base_state (or the map's base stream; a fixed base without
// one), its gripper from the map's gripper (stream:name), the object
// track, at the options' rate.
func (e *Episode) Join(o recording.Options) (*recording.Stream, error) {
	var base, grip recording.Source
	baseName, gripName, gripValue := BaseStream, "", ""
	if m := o.Map; m != nil {
		if m.BaseStream != "" {
			baseName = m.BaseStream
		}
		gripName, gripValue = m.GripperStream, m.GripperValue
	}
	switch {
	case baseName == "fixed":
	case e.Has(baseName):
		base = &baseSource{e: e, stream: baseName}
	case o.Map != nil && o.Map.BaseStream != "":
		return nil, fmt.Errorf("%s: no %s stream (the map's agent base)", e.Dir, baseName)
	}
	if gripName != "" && gripName != "none" {
		if !e.Has(gripName) {
			return nil, fmt.Errorf("%s: no %s stream (the map's agent gripper)", e.Dir, gripName)
		}
		grip = &valueSource{e: e, stream: gripName, value: gripValue}
	}
	meta := map[string]any{"layout": "dora-record", "episode": e.Dir, "streams": e.Streams}
	var md any
	if len(e.Metadata) < 64<<10 && json.Unmarshal(e.Metadata, &md) == nil {
		meta["metadata"] = md
	}
	return recording.Join(o.Join(e.Dir, base, grip, meta))
}
