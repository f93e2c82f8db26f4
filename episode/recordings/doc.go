// Package recordings handles real-robot recordings whatever their layout:
// Oopsie's HDF5 episode files (package oopsie) and Dora-record's episode
// folders (package dora). It finds them under paths (Find), opens one
// joined with its object track as an episode stream (Episode.Open),
// writes it as an episode file (Convert), checks it (Check), writes and
// reads its annotations (Annotate, ReadAnnotations) and prints how two
// annotators agree (WriteAgreement). What both layouts share below this
// (tracks, joining, maps, the annotation record) is package recording's.
//
// It sits above oopsie, dora, recording and robolab in the episode level:
// it may import episode, predicates and the layers below them, and the
// ground utilities of internal/, never internal/jobs or cmd.
package recordings
