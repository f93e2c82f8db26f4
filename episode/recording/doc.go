// Package recording joins real-robot recordings with object tracks into
// episodes. A robot recording (Oopsie's HDF5 episodes, Dora-record's
// Parquet sessions: packages oopsie and dora) holds the robot's own
// streams but no object states; a perception system's object track adds
// them. This package holds what both layouts share:
//
//   - TrackReader reads an object track: JSON Lines, one line per sample,
//     each a step line of the episode format ("objects", "facts",
//     "false", "unset") plus "t", seconds on the recording's clock (unix
//     time), in increasing order. "step" may be given and is ignored.
//   - Join turns robot streams (Series) and a track into an episode: one
//     step every 1/rate seconds, each stream's latest sample at or before
//     the step time, a clear error on a gap longer than the bound or on a
//     timestamp that goes back.
//   - Agent makes the robot an instance: its base pose and footprint give
//     it a position, orientation and oriented box (so nextto and touching
//     with objects are decided by box geometry), a room layout its room
//     (inroom), and an open gripper records that it holds nothing.
//   - Map is the optional YAML mapping file (--map).
//   - Annotation is the verdict record written where annotation tools look,
//     and Compare measures how two annotators agree (Cohen's kappa).
package recording
