package main

import "github.com/urfave/cli/v2"

// endCommand is end, SessionEnd's: it leaves the handoff the next
// session is told, and the session's last log, within the 1 s a client
// gives a session's end (hooks/end.go).
func endCommand(h hookIO) *cli.Command { return hookCommand("end", h) }
