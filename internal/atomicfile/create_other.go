//go:build !unix

package atomicfile

import "os"

// openExclusive creates name, failing if it exists.
func openExclusive(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
}
