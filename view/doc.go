// Package view draws an episode as one self-contained HTML page: the
// objects' boxes in their rooms from above and from the side at every
// shown step, the scene's furniture, the goal conjuncts' and the :init
// literals' truth linked to the objects they name, and the check report.
//
// A page is built in steps, each a function of this package, so that a
// caller (bddl view) keeps only the flags and the check itself:
//
//	e, err := view.ReadEpisode(path, view.MaxFrames) // boxes at every step, thinned
//	e.SetResult(result)                              // the check's report and per-step truth
//	e.Link(problem, result.Conjuncts)                // roles and literal ↔ object links
//	err = e.AddScene(base, sceneFile)                // furniture and room floors
//	page, err := view.Render(&e.Data)
//
// The page loads nothing (no network, no server): its data is JSON
// inside it, escaped by html/template for a script element.
//
// view may import the engine's packages (bddl, kb, episode, sampler) and
// the ground utilities of internal/ (fsutil, termsafe); it does not
// import internal/jobs or cmd.
package view
