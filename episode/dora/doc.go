// Package dora reads Dora-record sessions: dora-record/<session>/
// episode_<n>/, one folder per episode holding metadata.json and one
// Parquet file per stream. Every stream file has the columns trace_id,
// span_id, timestamp_uhlc, timestamp_utc (the sample's time, used here),
// user_timestamp_utc, parameters and its data column:
//
//   - observation.state, action: list<struct<name, value>> (named joints);
//   - observation.base_state: a list holding one struct {base: {position,
//     quat, rpy}, imu: {acc_B, omega_B}, stand_pose, state}, flattened to
//     16 values (position 3, quaternion 4, rpy 3, acceleration 3, angular
//     velocity 3); a plain list of at least 10 numbers is taken in that
//     order too;
//   - action.base: 6 numbers (vel_x, vel_y, vel_yaw, vel_height,
//     vel_pitch, base_yaw).
//
// Image streams (observation.images.*) are never opened. Streams are
// read a page of one column at a time (parquet-go, pure Go): only the
// timestamp column and the data column's leaves, so memory stays bounded
// whatever the episode's length.
package dora
