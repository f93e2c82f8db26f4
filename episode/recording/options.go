package recording

import (
	"os"
	"path/filepath"
	"strings"
)

// Options are what a command gives a layout's reader to make an episode.
type Options struct {
	Activity string
	// Instances are the activity's (nil: names are not checked).
	Instances []string
	Map       *Map // nil: none
	// Track is the object track; "" looks for X.objects.jsonl beside the
	// recording X (X.h5 or the folder X/).
	Track        string
	Rate, MaxGap float64
	DeclareSteps bool
}

// TrackSuffix is what a recording's name is given to name its track.
const TrackSuffix = ".objects.jsonl"

// TrackBeside is the track of a recording (a file X.h5 or a folder X):
// X.objects.jsonl beside it, "" when there is none.
func TrackBeside(path string) string {
	clean := filepath.Clean(path)
	base := strings.TrimSuffix(clean, filepath.Ext(clean))
	if info, err := os.Stat(clean); err == nil && info.IsDir() {
		base = clean
	}
	p := base + TrackSuffix
	if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
		return p
	}
	return ""
}

// Agent is the agent the options describe: the map's, else the default;
// the instance is the activity's agent.n.01 instance when the map does
// not name one and the activity has one.
func (o *Options) Agent() *Agent {
	a := DefaultAgentConfig()
	named := false
	if o.Map != nil {
		a = o.Map.Agent
		named = a.Instance != DefaultAgent
	}
	if !named && o.Instances != nil {
		for _, in := range o.Instances {
			if strings.HasPrefix(strings.ToLower(in), "agent.n.01_") {
				a.Instance = in
				break
			}
		}
	}
	return &a
}

// Join makes the join's options for a recording at path, with its base
// and gripper streams (nil: none) and its layout's header meta.
func (o *Options) Join(name string, base, gripper Source, meta map[string]any) JoinOptions {
	j := JoinOptions{Name: name, Activity: o.Activity, Rate: o.Rate, MaxGap: o.MaxGap, Agent: o.Agent(),
		Base: base, Gripper: gripper, Track: o.Track, Instances: o.Instances, Meta: meta, DeclareSteps: o.DeclareSteps}
	if j.Track == "" {
		j.Track = TrackBeside(name)
	}
	if o.Map != nil {
		j.Names, j.Static = o.Map.Names, o.Map.Static
	}
	if j.Track != "" {
		meta["track"] = j.Track
	}
	return j
}
