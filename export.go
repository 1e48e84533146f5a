package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/otlp"
	"github.com/urfave/cli/v2"
)

// exportCommand is export: the event log's backlog sent to the team's
// OpenTelemetry collector now (docs/observability.md).
func exportCommand(stdout io.Writer, usageErr cli.OnUsageErrorFunc) *cli.Command {
	return &cli.Command{
		Name:         "export",
		OnUsageError: usageErr,
		Usage:        "send the events of .claude/logs/events.jsonl not sent yet to the OTLP collector OTEL_EXPORTER_OTLP_ENDPOINT names",
		UsageText:    "session-hooks export [--format text|json]",
		Flags:        []cli.Flag{&cli.StringFlag{Name: "format", Usage: "`FORMAT`: text or json"}},
		Action: func(c *cli.Context) error {
			f := c.String("format")
			if f != "" && f != "text" && f != "json" {
				return cli.Exit(fmt.Sprintf("session-hooks: --format %q: use text or json", f), 2)
			}
			if c.Args().Present() {
				return cli.Exit(fmt.Sprintf("session-hooks: export takes no argument (%q)", c.Args().First()), 2)
			}
			dir, err := os.Getwd()
			if err != nil {
				return fail(err)
			}
			return fail(otlp.RunExport(logs.DirFor(dir), otlp.CommandOptions{Getenv: os.Getenv, Version: version(),
				Now: time.Now, JSON: f == "json"}, stdout))
		},
	}
}
