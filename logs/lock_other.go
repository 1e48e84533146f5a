//go:build !unix

package logs

import (
	"errors"
	"os"
)

// TryLock: without flock, read-modify-writes are not guarded on this
// platform; callers go on unlocked.
func TryLock(*os.File) (bool, error) { return false, errors.ErrUnsupported }

// NoFollow: Windows opens no symbolic link as a file by default.
const NoFollow = 0
