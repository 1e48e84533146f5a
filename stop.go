package main

import "github.com/urfave/cli/v2"

// stopCommand is stop, Stop's (with --long-running): it holds a stop once
// while the work is uncommitted or unrecorded (hooks/stop.go).
func stopCommand(h hookIO) *cli.Command { return hookCommand("stop", h) }
