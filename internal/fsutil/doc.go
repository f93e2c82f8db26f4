// Package fsutil opens, reads, walks and replaces the files bddl is given,
// safely: only regular files are read from data (a path in an episode
// header, a file found while walking a tree), every read is bounded, walks
// follow symbolic links without looping, and a replaced file keeps its
// owner, group and mode.
//
// The rules every command follows:
//
//   - OpenRegular / ReadFile for any file named by data or found by a walk:
//     a FIFO, a device or a socket is refused, never opened (opening a FIFO
//     would block).
//   - ReadArg for a file the user named on the command line: a regular file,
//     "-" (standard input) or a pipe such as the shell's <(cmd) is read once,
//     up to the limit.
//   - Walk to expand a directory: symbolic links are followed (a link back
//     to an ancestor is reported once and not followed again); non-regular
//     files are skipped with a note.
//   - WriteFileAtomic to replace a user's file.
//   - Lock to hold an exclusive advisory lock on a file being appended to.
package fsutil
