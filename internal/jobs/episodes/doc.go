// Package episodes is the jobs of the commands that write episodes and
// annotations from an activity: 'bddl episode from-init', synth,
// from-oopsie, from-dora, convert (RoboLab) and apply-rules, and 'bddl
// annotate' and 'annotations compare'. A Source compiles the activity a
// command names (the command supplies the knowledge base, its guard and
// the reading policy); each job checks its request, writes its files
// atomically with a copy of the definition beside them, and returns an
// error of batch's classes (usage, findings) for the command's exit
// status. Reading the formats is episode/...'s; cmd/bddl keeps the flags.
//
// It is orchestration (the jobs level): it may import every package but
// cmd.
package episodes
