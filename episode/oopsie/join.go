package oopsie

import (
	"fmt"
	"path/filepath"

	"github.com/openbddl/bddl/episode/recording"
)

// Join makes the episode's joined stream: the agent's base pose from
// actions/base_position when it holds data (or the map's base stream;
// else a fixed base), its gripper from robot_states/gripper_position
// (or the map's), the object track, at the options' rate.
func (e *Episode) Join(o recording.Options) (*recording.Stream, error) {
	hz := e.ControlFrequency
	if hz == 0 && o.Map != nil {
		hz = o.Map.ControlFrequency
	}
	var baseName, gripName string
	if o.Map != nil {
		baseName, gripName = o.Map.BaseStream, o.Map.GripperStream
	}
	base, err := e.stream(baseName, BasePath, 3, "base", func(row, out []float64) []float64 { return append(out, row[0], row[1], row[2]) })
	if err != nil {
		return nil, err
	}
	grip, err := e.stream(gripName, GripperPath, 1, "gripper", func(row, out []float64) []float64 { return append(out, row[0]) })
	if err != nil {
		return nil, err
	}
	if base != nil || grip != nil {
		if hz <= 0 {
			return nil, &Error{File: e.Path, Path: "/robot_profile", Row: -1, Msg: "no control_frequency: the robot streams' times are not known (give control_frequency: in the --map file)"}
		}
		if !e.HasTimestamp {
			return nil, &Error{File: e.Path, Path: "/timestamp", Row: -1, Msg: "missing: the episode's start time is not known"}
		}
	}
	var bs, gs recording.Source
	if base != nil {
		base.t0, base.hz = e.Timestamp, hz
		bs = base
	}
	if grip != nil {
		grip.t0, grip.hz = e.Timestamp, hz
		gs = grip
	}
	meta := map[string]any{"layout": "oopsie", "file": filepath.Base(e.Path), "episode_id": e.EpisodeID, "lab_id": e.LabID,
		"language_instruction": e.LanguageInstruction, "control_frequency": hz}
	return recording.Join(o.Join(e.Path, bs, gs, meta))
}

// stream finds an agent stream: the map's path ("fixed" or "none": no
// stream), else the default path when it holds data; nil when none.
func (e *Episode) stream(mapped, def string, width int, what string, pick func(row, out []float64) []float64) (*source, error) {
	path := def
	switch mapped {
	case "fixed", "none":
		return nil, nil
	case "":
	default:
		path = mapped
	}
	d, ok := e.Dataset(path)
	if !ok || d.Empty {
		if mapped != "" {
			return nil, &Error{File: e.Path, Path: path, Row: -1, Msg: fmt.Sprintf("the map's agent %s stream is missing or empty", what)}
		}
		return nil, nil
	}
	if d.Width < width {
		return nil, &Error{File: e.Path, Path: path, Row: -1, Msg: fmt.Sprintf("%d values per row, the %s needs %d", d.Width, what, width)}
	}
	return &source{e: e, d: d, pick: pick}, nil
}
