//go:build linux || darwin || freebsd

package kb

import (
	"os"
	"syscall"
	"time"
)

// fileIdentity returns the identity the digest memo compares and the
// file's change time.
func fileIdentity(info os.FileInfo) (string, time.Time, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return "", time.Time{}, false
	}
	csec, cnsec := statCtime(st)
	ctime := time.Unix(csec, cnsec)
	return formatIdentity(uint64(st.Dev), uint64(st.Ino), info.Size(), info.ModTime().UnixNano(), ctime.UnixNano()), ctime, true
}
