// Package doratest writes Dora-record episode folders for tests and
// benchmarks, with the published layout (parquet-go's writer).
package doratest

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go"
)

// NamedValue is an element of observation.state and action.
type NamedValue struct {
	Name  string  `parquet:"name"`
	Value float64 `parquet:"value"`
}

// The columns every stream file has.
type common struct {
	TraceID          string `parquet:"trace_id"`
	SpanID           string `parquet:"span_id"`
	TimestampUHLC    uint64 `parquet:"timestamp_uhlc"`
	TimestampUTC     int64  `parquet:"timestamp_utc,timestamp(nanosecond)"`
	UserTimestampUTC int64  `parquet:"user_timestamp_utc,timestamp(nanosecond)"`
	Parameters       string `parquet:"parameters"`
}

type namedRow struct {
	common
	State []NamedValue `parquet:"observation.state,list"`
}

type actionRow struct {
	common
	Action []NamedValue `parquet:"action,list"`
}

type actionBaseRow struct {
	common
	Base []float64 `parquet:"action.base,list"`
}

// BasePose, IMU and BaseState are observation.base_state's struct.
type BasePose struct {
	Position []float64 `parquet:"position,list"`
	Quat     []float64 `parquet:"quat,list"`
	RPY      []float64 `parquet:"rpy,list"`
}

type IMU struct {
	AccB   []float64 `parquet:"acc_B,list"`
	OmegaB []float64 `parquet:"omega_B,list"`
}

type BaseState struct {
	Base      BasePose  `parquet:"base"`
	IMU       IMU       `parquet:"imu"`
	StandPose []float64 `parquet:"stand_pose,list"`
	State     int64     `parquet:"state"`
}

type baseRow struct {
	common
	BaseState []BaseState `parquet:"observation.base_state,list"`
}

// Spec describes an episode to write.
type Spec struct {
	// Start is the unix time of the first sample; Duration the seconds
	// recorded.
	Start, Duration float64
	// StateHz is the rate of observation.state and base_state; ActionHz
	// of action and action.base (0: 60 and 100).
	StateHz, ActionHz float64
	// Base gives the base pose at a time (nil: the origin).
	Base func(t float64) (x, y, yaw float64)
	// Gripper gives the "left_gripper" joint of observation.state.
	Gripper func(t float64) float64
	// Omit are streams not written.
	Omit []string
	// GapFrom, GapTo leave base_state without samples in between.
	GapFrom, GapTo float64
	// BackAt, when > 0, makes base_state's sample BackAt go back in time.
	BackAt int
	// RowGroup is the rows per row group (0: the writer's default).
	RowGroup int64
	// Metadata is written as metadata.json (nil: a small default).
	Metadata map[string]any
}

// StateJoints are observation.state's 29 names; ActionJoints action's 31.
var StateJoints, ActionJoints = joints(28, "left_gripper"), joints(31, "")

func joints(n int, extra string) []string {
	var out []string
	for _, side := range []string{"left", "right"} {
		for _, j := range []string{"shoulder_pitch", "shoulder_roll", "shoulder_yaw", "elbow", "wrist_roll", "wrist_pitch", "wrist_yaw"} {
			out = append(out, side+"_"+j+"_joint")
		}
	}
	for i := 0; len(out) < n; i++ {
		out = append(out, fmt.Sprintf("hand_%d_joint", i))
	}
	if extra != "" {
		out = append(out, extra)
	}
	return out[:max(n, len(out))]
}

func omitted(s Spec, name string) bool {
	for _, o := range s.Omit {
		if o == name {
			return true
		}
	}
	return false
}

func times(s Spec, hz float64) []float64 {
	n := int(math.Floor(s.Duration*hz+1e-9)) + 1
	out := make([]float64, 0, n)
	for i := range n {
		out = append(out, s.Start+float64(i)/hz)
	}
	return out
}

func stamp(t float64, i int) common {
	ns := int64(math.Round(t * 1e9))
	return common{TraceID: "trace", SpanID: fmt.Sprint(i), TimestampUHLC: uint64(ns), TimestampUTC: ns, UserTimestampUTC: ns, Parameters: "{}"}
}

func write[T any](path string, rows []T, rowGroup int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	var opts []parquet.WriterOption
	if rowGroup > 0 {
		opts = append(opts, parquet.MaxRowsPerRowGroup(rowGroup))
	}
	w := parquet.NewGenericWriter[T](f, opts...)
	if _, err := w.Write(rows); err != nil {
		f.Close()
		return err
	}
	if err := w.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Write writes an episode folder (created if needed).
func Write(dir string, s Spec) error {
	if s.StateHz == 0 {
		s.StateHz = 60
	}
	if s.ActionHz == 0 {
		s.ActionHz = 100
	}
	if s.Base == nil {
		s.Base = func(float64) (float64, float64, float64) { return 0, 0, 0 }
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	md := s.Metadata
	if md == nil {
		md = map[string]any{"robot": "test-humanoid", "task": "test", "fps": s.StateHz}
	}
	mdj, _ := json.Marshal(md)
	if err := os.WriteFile(filepath.Join(dir, "metadata.json"), mdj, 0o644); err != nil {
		return err
	}
	st := times(s, s.StateHz)
	if !omitted(s, "observation.state") {
		rows := make([]namedRow, len(st))
		for i, t := range st {
			vals := make([]NamedValue, len(StateJoints))
			for j, n := range StateJoints {
				vals[j] = NamedValue{n, math.Sin(t + float64(j))}
			}
			if s.Gripper != nil {
				vals[len(vals)-1].Value = s.Gripper(t)
			}
			rows[i] = namedRow{stamp(t, i), vals}
		}
		if err := write(filepath.Join(dir, "observation.state.parquet"), rows, s.RowGroup); err != nil {
			return err
		}
	}
	if !omitted(s, "observation.base_state") {
		var rows []baseRow
		for i, t := range st {
			if s.GapTo > s.GapFrom && t > s.GapFrom && t < s.GapTo {
				continue
			}
			if s.BackAt > 0 && i == s.BackAt {
				t -= 1
			}
			x, y, yaw := s.Base(t)
			bs := BaseState{Base: BasePose{Position: []float64{x, y, 0.7}, Quat: []float64{0, 0, math.Sin(yaw / 2), math.Cos(yaw / 2)}, RPY: []float64{0, 0, yaw}},
				IMU: IMU{AccB: []float64{0, 0, 9.81}, OmegaB: []float64{0, 0, 0}}, StandPose: []float64{0, 0, 0, 0}, State: 1}
			rows = append(rows, baseRow{stamp(t, i), []BaseState{bs}})
		}
		if err := write(filepath.Join(dir, "observation.base_state.parquet"), rows, s.RowGroup); err != nil {
			return err
		}
	}
	at := times(s, s.ActionHz)
	if !omitted(s, "action") {
		rows := make([]actionRow, len(at))
		for i, t := range at {
			vals := make([]NamedValue, len(ActionJoints))
			for j, n := range ActionJoints {
				vals[j] = NamedValue{n, math.Cos(t + float64(j))}
			}
			rows[i] = actionRow{stamp(t, i), vals}
		}
		if err := write(filepath.Join(dir, "action.parquet"), rows, s.RowGroup); err != nil {
			return err
		}
	}
	if !omitted(s, "action.base") {
		rows := make([]actionBaseRow, len(at))
		for i, t := range at {
			rows[i] = actionBaseRow{stamp(t, i), []float64{0.1, 0, 0.01, 0, 0, t - s.Start}}
		}
		if err := write(filepath.Join(dir, "action.base.parquet"), rows, s.RowGroup); err != nil {
			return err
		}
	}
	// an image stream, to prove it is never read: not Parquet at all
	return os.WriteFile(filepath.Join(dir, "observation.images.camera_top.parquet"), []byte("JPEG frames, never read"), 0o644)
}
