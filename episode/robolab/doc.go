// Package robolab reads RoboLab's recorded rollouts (run_<i>.hdf5) as
// episodes: every data/demo_<k> group of a run file is one episode, named
// "run_0.hdf5#demo_3", streamed in the episode package's JSON Lines format
// so that episode.Check judges it against a BDDL goal and
// episode.NewWriter's files can keep it.
//
// # Layout read
//
// Per demo: states/rigid_object/<name>/root_pose [T, 7] (position, then the
// quaternion in Isaac Lab's order w, x, y, z), bbox/bbox_mm/<name> [T, 8,
// 3] (oriented-box corners in millimetres, 0–3 the bottom face, 4–7 the
// top face, usually int16), states/articulation/<name>/root_pose [T, 7]
// and joint_position [T, J]. Everything is relative to the environment's
// origin. Nothing else is read: not obs/* (camera images), not actions,
// subtask or bbox/centroid. Datasets are read a few chunks at a time, so
// memory stays bounded whatever T is. T is the demo's num_samples
// attribute, else the length of actions, else of the first dataset read;
// every dataset read must have T rows.
//
// The seconds per step come from a "dt" attribute of the demo, else of
// data (or a "dt" in its env_args), else from env_cfg.json beside the file
// (sim.dt × decimation, as RoboLab computes the dt of its results). The environment name comes from
// data's env_args attribute, else the file's directory; the run index from
// the file name.
//
// # Names
//
// A Map (the --map YAML file) gives the BDDL instance of each RoboLab
// object and the header fields of the instances RoboLab does not record
// (the table, the floor, rooms), in the episode format's field names:
//
//	activity: putting_the_apple_in_the_bowl   # optional
//	names:
//	  apple: apple.n.01_1
//	  robot: agent.n.01_1
//	  camera_rig: null          # recorded but deliberately not used
//	static:
//	  table.n.02_1: {aabb: [0.2, -0.6, 0, 1.2, 0.6, 0.75]}
//	  cabinet.n.01_1:
//	    aabb: [1.1, -0.3, 0, 1.5, 0.3, 0.9]
//	    joints: {drawer: {q: 0, lo: 0, hi: 0.4}}
//
// An articulation's joint_position columns are the joints of its static
// entry, in the order written there (the columns carry no names in the
// file); without them its joints are not used. Without a map, a RoboLab
// name must be an instance of the activity; any other is an error naming
// the unmapped objects. With a map, objects neither mapped nor instances
// are ignored with a warning.
//
// # Bad input
//
// A missing group or dataset, a shape that does not match T, a NaN, a
// degenerate box, a chunk that cannot be read or is missing, a file shorter
// than its superblock declares: an *Error naming the file, the dataset and
// the step. The steps before a bad one are still checked, and the result
// is never a success.
//
// # RoboLab's verdicts
//
// LoadResults reads RoboLab's episode_results.jsonl; Judge attaches to a
// result the line of the same env_name, run and env_id, and classifies the
// two verdicts (both succeed, both fail, only RoboLab, only BDDL).
package robolab
