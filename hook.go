package main

import (
	"fmt"
	"io"
	"os"
	"time"

	agents "github.com/session-hooks/session-hooks/agent"
	"github.com/session-hooks/session-hooks/hooks"
	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/internal/gcpace"
	"github.com/session-hooks/session-hooks/internal/safefile"
	"github.com/urfave/cli/v2"
)

// hookIO is where a hook subcommand reads its payload and writes: its
// reply to stdout, a person's typos to term.
type hookIO struct {
	stdin        io.Reader
	stdout, term io.Writer
}

// hookCommand is one hook subcommand: its rows of the event table give
// its usage, its selecting flags and its handlers.
func hookCommand(name string, h hookIO) *cli.Command {
	plain, _ := eventtable.Lookup(name, func(string) bool { return false })
	flags := []cli.Flag{
		&cli.StringFlag{Name: "timeout", Usage: "answer within this `DURATION` (e.g. 800ms, 5s); also SESSION_HOOKS_TIMEOUT"},
		&cli.StringFlag{Name: "config", Usage: "read the configuration from `FILE` instead of .claude/session-hooks.json; also SESSION_HOOKS_CONFIG"},
		&cli.BoolFlag{Name: "dry-run", Usage: "run and log the long-running checks, but never block a stop or warn after a tool; also SESSION_HOOKS_DRY_RUN=1"},
		&cli.BoolFlag{Name: "no-log", Usage: "write no log file (events.jsonl included); also SESSION_HOOKS_NO_LOG=1"},
		&cli.StringFlag{Name: "format", Usage: "`FORMAT` of the output: markdown, or json for scripts (the facts; see docs/json.md)"},
	}
	for _, f := range eventtable.Flags(name) {
		flags = append([]cli.Flag{&cli.BoolFlag{Name: f, Usage: "the " + f + " variant (a row of its own in the event table)"}}, flags...)
	}
	return &cli.Command{
		Name: name, Usage: plain.Usage, Description: plain.Description, Flags: flags,
		OnUsageError: usageError(h.term, h.stdin),
		Action: func(c *cli.Context) error {
			began := time.Now()
			e, _ := eventtable.Lookup(name, c.Bool)
			gcpace.Hook()
			safefile.KeepRoots() // one hook, one project: each root opened once
			deadline, notes := hooks.DeadlineFor(c.String("timeout"), os.Getenv("SESSION_HOOKS_TIMEOUT"), e.Deadline)
			agent, ok := agents.All[agentOf(c)]
			if !ok {
				agent = agents.All[agents.Default]
				notes = append(notes, fmt.Sprintf("--agent %q is not %s; the transcript is read as %s's", agentOf(c), agents.Names("or"), agent.Hooks.Label))
			}
			if os.Getenv("SESSION_HOOKS_PLUGIN") == "1" && agent.PluginStandsDown != nil {
				if agent.PluginStandsDown(e.Event, e.Args(), deadline/20) {
					return nil // the settings run this entry already; the plugin stands down
				}
				deadline -= time.Since(began) // the check was part of the hook's time
			}
			format := c.String("format")
			if format != "" && format != "json" && format != "markdown" {
				notes = append(notes, fmt.Sprintf("--format %q is not markdown or json; using markdown", format))
			}
			hooks.Execute(h.stdin, h.stdout, e, hooks.Options{Deadline: deadline, Notes: notes, ConfigPath: c.String("config"),
				DryRun: c.Bool("dry-run"), NoLog: c.Bool("no-log") || os.Getenv("SESSION_HOOKS_NO_LOG") == "1", JSON: format == "json", Version: version(),
				Agent: agent.Hooks, Now: time.Now, Getenv: os.Getenv})
			return nil
		},
	}
}

// usageError answers a hook subcommand's bad flag: run by a client
// (a payload on stdin) it keeps the hook contract, exit 0 and the problem
// on stdout; typed by a person (stdin a terminal) it fails as any typo
// does, on stderr with exit 2 and the flag meant.
func usageError(stdout io.Writer, stdin io.Reader) cli.OnUsageErrorFunc {
	return func(c *cli.Context, err error, sub bool) error {
		if protocol.IsTerminal(stdin) {
			return personUsageError("")(c, err, sub)
		}
		fmt.Fprintf(stdout, "session-hooks: %v\n%s\n", err, eventtable.UsageLine())
		return nil
	}
}
