//go:build !unix

package events

import (
	"io/fs"
	"os"
)

const noFollow = 0

func linkCount(fs.FileInfo) uint64 { return 1 }

// lock does nothing where there is no flock: Windows refuses to rename a
// file another process holds open, so a second rotation fails instead.
func lock(*os.File) (unlock func()) { return func() {} }
