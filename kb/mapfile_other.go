//go:build !(linux || darwin || freebsd)

package kb

// mapEntry reads a cache entry where mapping it is not available.
func mapEntry(path string) ([]byte, error) { return readRegular(path, maxDataFile) }
