package episode

import "testing"

func TestConvertedRecord(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, file string
		details    any
		want       string
	}{
		{"no details", "out.jsonl", nil, `{"activity":"a","episode":"src","file":"out.jsonl","record":"converted"}`},
		{"map, no file", "", map[string]any{"steps": 3, "error": "x<y"}, `{"activity":"a","episode":"src","error":"x<y","record":"converted","steps":3}`},
		{"struct, instance and output dropped", "f", struct {
			Instance string `json:"instance"`
			Output   string `json:"output"`
			States   int    `json:"states"`
		}{"i", "o", 2}, `{"activity":"a","episode":"src","file":"f","record":"converted","states":2}`},
	} {
		got, err := ConvertedRecord(tc.file, "src", "a", tc.details)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: ConvertedRecord = %s, %v; want %s", tc.name, got, err, tc.want)
		}
	}
}
