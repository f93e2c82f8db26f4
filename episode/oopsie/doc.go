// Package oopsie reads Oopsie episodes (HDF5, schema oopsiedata_format_v1:
// one .h5/.hdf5 file per episode, found anywhere in a tree) and writes
// BDDL verdicts into them as an annotator group.
//
// Read: the root attributes (schema, language_instruction, episode_id,
// lab_id, operator_name, robot_profile, timestamp), every dataset of
// observations/robot_states and actions with its shape (an empty action
// dataset is noted as such), observations/video_paths (the MP4s
// themselves are never opened) and every episode_annotations/<annotator>
// group's attributes. Datasets are read a block of rows at a time, so
// memory stays bounded whatever the episode's length.
//
// The agent's streams: the base pose is actions/base_position [N, 3]
// (x, y, yaw) when it holds data, else a fixed pose (the map's
// base_pose, else the origin); the gripper is
// observations/robot_states/gripper_position (closed above 0.5). Sample
// i is at timestamp + i / control_frequency, the frequency coming from
// robot_profile's control_frequency (else the map's).
//
// # Writing a verdict
//
// Annotate adds episode_annotations/<annotator>/ with the attributes of
// recording.Annotation, written as libhdf5 writes them (the HDF5 library is
// our fork, third_party/hdf5). The original's bytes are copied to a
// temporary file beside it and the group is added there in place (with
// --force the old group of the same annotator is unlinked first); when the
// library cannot add to the existing episode_annotations group, a fresh
// copy gets a new one instead, the other annotator groups re-created with
// their attributes. The copy is read back and every object but the
// annotation groups compared with the original through the reader, each
// other annotator group's attributes with what they were; only then is it
// renamed over the original (keeping its mode and owner). Any failure
// leaves the original untouched.
package oopsie
