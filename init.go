package main

import "github.com/urfave/cli/v2"

// initCommand is init, SessionStart's: at a startup, resume, clear or fork
// it tells the agent what the client's own git context leaves out and what
// the previous session left; with --compact-recovery (source "compact"),
// or the first prompt after a compaction for a client with no event right
// after one, it gives back the snapshot pre-compact took (hooks/init.go).
func initCommand(h hookIO) *cli.Command { return hookCommand("init", h) }
