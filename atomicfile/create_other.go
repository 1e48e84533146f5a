//go:build !unix

package atomicfile

import "os"

func createTemp(dir, prefix string) (*os.File, error) { return os.CreateTemp(dir, prefix+"*") }
