package main

import "github.com/urfave/cli/v2"

// postCompactCommand is post-compact, PostCompact's (with --post-compact):
// it records the compaction and what its summary lost (hooks/postcompact.go).
func postCompactCommand(h hookIO) *cli.Command { return hookCommand("post-compact", h) }
