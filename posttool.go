package main

import "github.com/urfave/cli/v2"

// postToolCommand is post-tool, PostToolBatch's or PostToolUse's (with
// --long-running): it warns when the feature list changed beyond passes,
// or the context passed a threshold (hooks/posttool.go).
func postToolCommand(h hookIO) *cli.Command { return hookCommand("post-tool", h) }
