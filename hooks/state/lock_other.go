//go:build !unix

package state

import (
	"errors"
	"os"
)

// tryLock: without flock the state's read-modify-write is not guarded on
// this platform; the run goes on unlocked, as before locks.
func tryLock(*os.File) (bool, error) { return false, errors.ErrUnsupported }

const noFollow = 0
