package view

import (
	"bytes"
	"math"
	"regexp"
	"testing"
)

// TestViewPageControlBytes: an activity or episode name holding ESC,
// BEL, CR or LF (from a header or a walked file name) reaches the page
// escaped, never as a raw control byte.
func TestViewPageControlBytes(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, activity, episode string }{
		{"osc in file name", "a", "runs/c\x1b]0;T\a\nFAKE.jsonl"},
		{"cr lf in activity", "tidy\r\nok    FAKE", "e.jsonl"},
		{"del and c0", "a\x7f\x01", "e\x1b[31m.jsonl"},
	}
	for _, tt := range tests {
		page, err := Render(&Data{Activity: tt.activity, Episode: tt.episode})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for i, b := range page {
			if b < 0x20 && b != '\n' && b != '\t' {
				t.Errorf("%s: Render: control byte %#x at %d", tt.name, b, i)
				break
			}
		}
		title := regexp.MustCompile(`<title>(.*)</title>`).FindSubmatch(page)
		if title == nil || bytes.IndexByte(title[1], 0x7f) >= 0 {
			t.Errorf("%s: Render: title %q", tt.name, title)
		}
	}
}

// TestFootprint: a scene object's oriented box, rebuilt from its yaw
// and enclosing box, has that enclosing box; at 45° the enclosing box
// itself is kept.
func TestFootprint(t *testing.T) {
	t.Parallel()
	for _, yaw := range []float64{0, 0.3, 1.2, -2.5, math.Pi / 2, math.Pi / 4} {
		// The box of a 2 × 0.5 object turned by yaw, centred at (2, 2.25).
		c, s := math.Abs(math.Cos(yaw)), math.Abs(math.Sin(yaw))
		ex, ey := c*1+s*0.25, s*1+c*0.25
		lo := [3]float64{2 - ex, 2.25 - ey, 0}
		hi := [3]float64{2 + ex, 2.25 + ey, 1}
		f := footprint(lo, hi, yaw)
		if len(f) == 6 {
			// Right angles and 45° keep the enclosing box.
			if c > 1e-9 && s > 1e-9 && math.Abs(c-s) > 0.2 {
				t.Errorf("yaw %.2f: kept the axis-aligned box", yaw)
			}
			if [3]float64(f[:3]) != lo || [3]float64(f[3:]) != hi {
				t.Errorf("yaw %.2f: box %v, want %v..%v", yaw, f, lo, hi)
			}
			continue
		}
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for k := 0; k < 24; k += 3 {
			x0, x1 = min(x0, f[k]), max(x1, f[k])
			y0, y1 = min(y0, f[k+1]), max(y1, f[k+1])
		}
		if d := math.Abs(x0-lo[0]) + math.Abs(y0-lo[1]) + math.Abs(x1-hi[0]) + math.Abs(y1-hi[1]); d > 1e-9 {
			t.Errorf("yaw %.2f: corners enclosed by [%g %g %g %g], want %v..%v", yaw, x0, y0, x1, y1, lo, hi)
		}
		side := math.Hypot(f[3]-f[0], f[4]-f[1])
		if math.Abs(side-2) > 1e-9 && math.Abs(side-0.5) > 1e-9 {
			t.Errorf("yaw %.2f: side %g, want 2 or 0.5", yaw, side)
		}
	}
}
