package main

import (
	"io"

	agents "github.com/session-hooks/session-hooks/agent"
	"github.com/urfave/cli/v2"
)

// statusCommand is status: what the client's settings wire, and what is
// wrong with it (non-zero when anything is).
func statusCommand(stdout io.Writer, client agents.Client, usageErr cli.OnUsageErrorFunc) *cli.Command {
	return &cli.Command{
		Name:         "status",
		OnUsageError: usageErr,
		Usage:        "show which events each settings scope wires, and what is wrong with it",
		UsageText:    usageText("status", client),
		Flags:        flagsOf(client, "status"),
		Action: func(c *cli.Context) error {
			a, err := agentFor(c)
			if err != nil {
				return err
			}
			return result(c, stdout, a.Status)
		},
	}
}

// doctorCommand is doctor: every wired entry of ours rehearsed here with
// this binary, and the rest of what the hooks need.
func doctorCommand(stdout io.Writer, client agents.Client, usageErr cli.OnUsageErrorFunc) *cli.Command {
	return &cli.Command{
		Name:         "doctor",
		OnUsageError: usageErr,
		Usage:        "run every wired event on this project and check its timeout, the logs, the transcripts and git",
		UsageText:    usageText("doctor", client),
		Flags:        flagsOf(client, "doctor"),
		Action: func(c *cli.Context) error {
			a, err := agentFor(c)
			if err != nil {
				return err
			}
			return result(c, stdout, a.Doctor)
		},
	}
}
