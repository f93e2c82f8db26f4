package robolab

import (
	"encoding/json"
	"testing"

	"github.com/openbddl/bddl/episode"
)

func TestSmoke(t *testing.T) {
	for _, r := range checkFile(t, "testdata/run_0.hdf5", episode.CheckOptions{}) {
		b, _ := json.Marshal(r)
		t.Logf("%s", b)
	}
}
