package main

import "github.com/openbddl/bddl/internal/jobs/batch"

// stamped is the line a results file gets for o: o with what resuming
// and merging need (stdout's lines stay as they were): the shard
// it was checked under and the number of episodes of that shard (so a
// merge can name the shards and episodes missing), the episode's cleaned
// absolute path (a run resumed from another directory finds it) and its
// path relative to its --episode argument (what merging matches on).
func (c *checkRun) stamped(ep batch.Episode, o *batch.Outcome) *batch.Outcome {
	extra := make(map[string]any, len(o.Extra)+4)
	for k, v := range o.Extra {
		extra[k] = v
	}
	shard := "0/1"
	if !c.opts.shard.All() {
		shard = c.opts.shard.String()
	}
	extra["shard"] = shard
	extra["shard_inputs"] = c.shardInputs
	extra["key"] = ep.Key()
	if rel := ep.ShardKey(); rel != "" {
		extra["rel"] = rel
	}
	return &batch.Outcome{Result: o.Result, Extra: extra, Problems: o.Problems}
}
