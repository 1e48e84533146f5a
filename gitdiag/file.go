package gitdiag

import "github.com/session-hooks/session-hooks/gitdiag/internal/rawfile"

// The repository's files are opened and read through rawfile.
var (
	openFile = rawfile.Open
	readFile = rawfile.ReadFile
)
