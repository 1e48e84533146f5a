//go:build !unix

package gitdiag

import "os"

func openFile(path string) (*os.File, error) { return os.Open(path) }

func readFile(path string) ([]byte, error) { return os.ReadFile(path) }
