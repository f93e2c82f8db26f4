package bddl

import "testing"

func TestConsumerOptions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		goal    string
		want    GoalFormulas
		wantErr bool
	}{
		{"", FirstGoalFormula, false},
		{"first", FirstGoalFormula, false},
		{"all", AllGoalFormulas, false},
		{"some", 0, true},
	} {
		got, err := ConsumerOptions(tc.goal, true)
		if (err != nil) != tc.wantErr {
			t.Errorf("ConsumerOptions(%q) error %v, want error %v", tc.goal, err, tc.wantErr)
			continue
		}
		if err == nil && (got.Goal != tc.want || got.Mode != Reference || !got.WarningsAsErrors) {
			t.Errorf("ConsumerOptions(%q) = %+v, want Reference, goal %v, warnings as errors", tc.goal, got, tc.want)
		}
	}
}
