package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/session-hooks/session-hooks/events"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/urfave/cli/v2"
)

// cmdSummary renders one session from .claude/logs/events.jsonl.
func cmdSummary(c *cli.Context, out io.Writer) error {
	project, err := os.Getwd()
	if err != nil {
		return cli.Exit("session-hooks: "+err.Error(), 1)
	}
	all, err := events.Read(logs.DirFor(project))
	if err != nil {
		return cli.Exit("session-hooks: "+err.Error(), 1)
	}
	session := c.Args().First()
	if session != "" && c.Bool("last") {
		return cli.Exit("session-hooks: give a session id or --last, not both", 2)
	}
	if session == "" {
		if session = events.LastSession(all); session == "" {
			return cli.Exit("session-hooks: no event in "+events.File+" names a session", 1)
		}
	}
	s, err := events.Summarize(all, session)
	if err != nil {
		return cli.Exit("session-hooks: "+err.Error(), 1)
	}
	switch c.String("format") {
	case "json":
		b, _ := json.MarshalIndent(s, "", "  ")
		fmt.Fprintln(out, string(b))
	case "", "markdown":
		io.WriteString(out, s.Markdown())
	default:
		return cli.Exit(fmt.Sprintf("session-hooks: --format %q: use markdown or json", c.String("format")), 2)
	}
	return nil
}
