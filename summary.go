package main

import (
	"fmt"
	"io"
	"os"

	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/events"
	"github.com/urfave/cli/v2"
)

// summaryCommand is summary: a session rendered from events.jsonl.
func summaryCommand(stdout io.Writer, usageErr cli.OnUsageErrorFunc) *cli.Command {
	return &cli.Command{
		Name:         "summary",
		OnUsageError: usageErr,
		Usage:        "summarise a session from .claude/logs/events.jsonl (the latest with --last or no id)",
		UsageText:    "session-hooks summary [SESSION_ID | --last] [--format markdown|json]",
		Flags:        []cli.Flag{&cli.BoolFlag{Name: "last", Usage: "the latest session"}, &cli.StringFlag{Name: "format", Usage: "`FORMAT`: markdown or json"}},
		Action: func(c *cli.Context) error {
			f := c.String("format")
			if f != "" && f != "markdown" && f != "json" {
				return cli.Exit(fmt.Sprintf("session-hooks: --format %q: use markdown or json", f), 2)
			}
			dir, err := os.Getwd()
			if err != nil {
				return fail(err)
			}
			return fail(events.RunSummary(logs.DirFor(dir), events.SummaryOptions{Session: c.Args().First(),
				Last: c.Bool("last"), JSON: f == "json"}, stdout))
		},
	}
}
