package libero

// Report is the outcome of checking one episode.
type Report struct {
	Episode    string `json:"episode"`
	Definition string `json:"definition"`
	Steps      int    `json:"steps"`
	// Success: every goal atom true at one step (_check_success).
	Success     bool `json:"success"`
	SuccessStep int  `json:"success_step"` // -1 when never
	// Init is :init's conjunction at the first step; InitFailing the
	// atoms that are not true there.
	Init        Truth    `json:"init"`
	InitFailing []Result `json:"init_failing,omitempty"`
	// GoalAtEnd are the goal atoms at the last step that are not true.
	GoalUnmet []Result `json:"goal_unmet,omitempty"`
}

// Check evaluates :init at the first step and the goal at every step.
func Check(t *Task, steps []Step) Report {
	ev := NewEvaluator(t)
	r := Report{Steps: len(steps), SuccessStep: -1}
	if len(steps) == 0 {
		return r
	}
	init := ev.EvalAtoms(t.InitAtoms(), &steps[0])
	r.Init = All(init)
	for _, x := range init {
		if x.Truth != True {
			r.InitFailing = append(r.InitFailing, x)
		}
	}
	goal := t.GoalAtoms()
	var last []Result
	for i := range steps {
		last = ev.EvalAtoms(goal, &steps[i])
		if All(last) == True && r.SuccessStep < 0 {
			r.SuccessStep = steps[i].Step
			r.Success = true
		}
	}
	for _, x := range last {
		if x.Truth != True {
			r.GoalUnmet = append(r.GoalUnmet, x)
		}
	}
	return r
}
