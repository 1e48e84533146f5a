//go:build !unix

package rawfile

import "os"

// Open opens a file for reading.
func Open(path string) (*os.File, error) { return os.Open(path) }

// ReadFile is os.ReadFile.
func ReadFile(path string) ([]byte, error) { return os.ReadFile(path) }
