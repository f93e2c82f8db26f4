package main

// check on LIBERO episodes: the flags it refuses, then the batch run
// (internal/jobs/liberocheck) or check --init's records.

import (
	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/jobs/liberocheck"
	"github.com/openbddl/bddl/libero"
)

func init() {
	checkExtensions = append(checkExtensions, func(cmd *cobra.Command, o *checkOptions) {
		// --init: engineer 19 adds it for BEHAVIOR-1K instances too; add
		// it here only when check does not define it yet.
		if cmd.Flags().Lookup("init") == nil {
			cmd.Flags().Bool("init", false, "check only whether :init holds at the first step")
		}
	})
}

// checkLibero checks LIBERO episodes when every episode argument is one;
// it reports whether it handled the command.
func checkLibero(cmd *cobra.Command, opts *checkOptions) (bool, error) {
	if len(opts.episodes) == 0 {
		return false, nil
	}
	ins, ok, err := liberocheck.Episodes(opts.episodes)
	switch {
	case err != nil:
		return true, misuse("%v", err)
	case !ok:
		return false, nil
	}
	if err := checkFormat(opts.format); err != nil {
		return true, err
	}
	initOnly, _ := cmd.Flags().GetBool("init")
	if initOnly {
		// check --init's records, table, -o and --shard, as for
		// BEHAVIOR-1K states.
		if err := refuseInitFlags(cmd); err != nil {
			return true, err
		}
		return true, runInit(opts, liberocheck.InitJobs(ins, liberoFileCheck(opts)))
	}
	switch {
	case opts.hold < 1:
		return true, misuse("--hold must be at least 1, not %d", opts.hold)
	case opts.perStep, opts.plot != "", opts.lenient:
		// As typed: -o/--output and --shard are supported.
		for _, name := range []string{"per-step", "plot", "lenient"} {
			if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
				return true, misuse("--%s is not supported for LIBERO episodes", name)
			}
		}
		return true, misuse("--per-step, --plot and --lenient are not supported for LIBERO episodes")
	}
	shard, err := batch.ParseShard(opts.shardSpec)
	if err != nil {
		return true, misuse("%v", err)
	}
	// -o: a results file, resumed as check resumes one.
	var results *batch.ResultsFile
	if opts.out != "" {
		results, err = batch.OpenResults(opts.out, noter(opts.err))
		if err != nil {
			return true, misuse("-o %v", err)
		}
		defer results.Close()
	}
	failed, err := liberocheck.Run(ins, liberocheck.Options{File: liberoFileCheck(opts), Shard: shard, Results: results, ResultsName: opts.out,
		JSON: opts.format == "json", Details: opts.details, Out: opts.globalOptions.out, Err: opts.err, Encode: jsonLines(opts.globalOptions.out).Encode})
	if err != nil {
		return true, err
	}
	if failed {
		return true, findings()
	}
	return true, nil
}

// liberoFileCheck is how check reads a LIBERO episode: against
// --activity, else the definition its header names.
func liberoFileCheck(opts *checkOptions) libero.FileCheck {
	return libero.FileCheck{Definition: opts.activity, Stdin: opts.in, Diagnostics: opts.err,
		CheckOptions: libero.CheckOptions{Hold: opts.hold, AtEnd: opts.atEnd}}
}
