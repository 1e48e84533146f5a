package main

import "github.com/urfave/cli/v2"

// preCompactCommand is pre-compact, PreCompact's: it snapshots what the
// agent was doing (the request, the plan, the files, the open error, git)
// for the recovery after the compaction, and tells the summariser what to
// keep (hooks/precompact.go).
func preCompactCommand(h hookIO) *cli.Command { return hookCommand("pre-compact", h) }
