package dora

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// Arrow (pyarrow, the Rust arrow crate that Dora uses) writes every field
// nullable: the same streams with optional fields, an empty list and a
// null value must read too.
type optNamed struct {
	Name  *string  `parquet:"name,optional"`
	Value *float64 `parquet:"value,optional"`
}

type optStateRow struct {
	TimestampUTC *int64     `parquet:"timestamp_utc,optional,timestamp(microsecond)"`
	State        []optNamed `parquet:"observation.state,optional,list"`
}

type optPose struct {
	Position []float64 `parquet:"position,optional,list"`
	Quat     []float64 `parquet:"quat,optional,list"`
}

type optBase struct {
	Base *optPose `parquet:"base,optional"`
}

type optBaseRow struct {
	TimestampUTC int64     `parquet:"timestamp_utc,timestamp(nanosecond)"`
	BaseState    []optBase `parquet:"observation.base_state,optional,list"`
}

func writeRows[T any](t *testing.T, path string, rows []T) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[T](f)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func TestOptionalFields(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	name, v := "left_gripper", 0.75
	us := func(s float64) *int64 { x := int64(s * 1e6); return &x }
	writeRows(t, filepath.Join(dir, "observation.state.parquet"), []optStateRow{
		{us(10), []optNamed{{&name, &v}}},
		{us(10.5), nil},
		{us(11), []optNamed{{&name, nil}}},
	})
	sf, err := OpenStream(filepath.Join(dir, "observation.state.parquet"), "observation.state")
	if err != nil {
		t.Fatal(err)
	}
	defer sf.Close()
	r := sf.Reader(false)
	var got []Sample
	for {
		s, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, Sample{T: s.T, Names: append([]string(nil), s.Names...), Values: append([]float64(nil), s.Values...)})
	}
	if len(got) != 3 || got[0].T != 10 || got[1].T != 10.5 || len(got[0].Values) != 1 || got[0].Values[0] != 0.75 || len(got[1].Values) != 0 || !math.IsNaN(got[2].Values[0]) {
		t.Fatalf("rows %+v", got)
	}
	// a base state with position and quaternion only: yaw from the quaternion
	yaw := 0.8
	writeRows(t, filepath.Join(dir, "observation.base_state.parquet"), []optBaseRow{
		{10e9, []optBase{{&optPose{Position: []float64{1, 2, 0.7}, Quat: []float64{0, 0, math.Sin(yaw / 2), math.Cos(yaw / 2)}}}}},
	})
	s, err := (&baseSource{e: &Episode{Dir: dir}, stream: "observation.base_state"}).Open()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tm, vals, err := s.Next()
	if err != nil || tm != 10 || vals[0] != 1 || vals[1] != 2 || math.Abs(vals[2]-yaw) > 1e-12 {
		t.Fatalf("base pose %v at %v, %v", vals, tm, err)
	}
}
