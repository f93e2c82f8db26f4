// Package robotcheck lets check read robot data directly: RoboLab run
// files (run_<i>.hdf5, one episode per data/demo_<k>) and real-robot
// recordings (Oopsie's HDF5 files, Dora-record's episode folders), as
// episode formats of internal/jobs/batch registered when the package is
// loaded. A run's state — the map, the activity, RoboLab's verdicts, the
// streams between opening and finishing — is a RoboLab or Recordings
// value that the batch Checker hands to the formats' Open as its Config;
// their Setup, Prepare and Report are check's hooks before, at the start
// of and after a run. cmd/bddl keeps the flags and help text.
//
// It is orchestration (the jobs level): it may import every package but
// cmd.
package robotcheck
