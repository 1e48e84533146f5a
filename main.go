// Command session-hooks is run by Claude Code at session boundaries. It tells
// the agent where it was (branch, recent commits, dirty files), snapshots
// the work in progress before a compaction and re-injects it afterwards,
// and leaves markdown logs in .claude/logs/.
//
// As a hook it always exits 0 and prints nothing on stderr: a hook that
// fails breaks its user's session, so every problem becomes one line in
// the output instead.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"
)

// usageLine is what the Node script printed for a missing or unknown event.
const usageLine = "Usage: session-hooks <init|pre-compact|end|stop|post-tool> [--compact-recovery]"

// buildVersion is set at link time (-ldflags "-X main.buildVersion=v1.2.3").
var buildVersion string

func version() string {
	if buildVersion != "" {
		return buildVersion
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

func main() {
	// A reader that goes away must not kill us with SIGPIPE mid-write.
	signal.Ignore(syscall.SIGPIPE)
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// run executes one command line and returns the exit status. Hooks always
// return 0 and print their problems; only the commands a person runs
// (install, uninstall, doctor) fail, with their message on stderr.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stdout, "session-hooks: internal error (%v); nothing was injected. Please report this.\n", v)
			code = 0
		}
	}()
	app := newApp(stdin, stdout)
	err := app.Run(args)
	var exit cli.ExitCoder
	switch {
	case errors.As(err, &exit):
		fmt.Fprintln(stderr, exit.Error())
		return exit.ExitCode()
	case err != nil:
		fmt.Fprintf(stdout, "session-hooks: %v\n%s\n", err, usageLine)
	}
	return 0
}

func newApp(stdin io.Reader, stdout io.Writer) *cli.App {
	hook := func(event string, defaultDeadline time.Duration, handle func(c *cli.Context) handler) cli.ActionFunc {
		return func(c *cli.Context) error {
			deadline, notes := deadlineFor(c, defaultDeadline)
			opt := hookOptions{deadline: deadline, notes: notes, configPath: c.String("config"), dryRun: c.Bool("dry-run"),
				noLog: c.Bool("no-log"), json: c.String("format") == "json"}
			if f := c.String("format"); f != "" && f != "json" && f != "markdown" {
				opt.notes = append(opt.notes, fmt.Sprintf("--format %q is not markdown or json; using markdown", f))
			}
			runHook(stdin, stdout, event, opt, handle(c))
			return nil
		}
	}
	timeout := &cli.StringFlag{Name: "timeout", Usage: "answer within this `DURATION` (e.g. 800ms, 5s); also SESSION_HOOKS_TIMEOUT"}
	configFlag := &cli.StringFlag{Name: "config", Usage: "read the configuration from `FILE` instead of .claude/session-hooks.json; also SESSION_HOOKS_CONFIG"}
	dryRun := &cli.BoolFlag{Name: "dry-run", Usage: "run and log the long-running checks, but never block a stop or warn after a tool; also SESSION_HOOKS_DRY_RUN=1"}
	noLog := &cli.BoolFlag{Name: "no-log", Usage: "write no log file (events.jsonl included)"}
	format := &cli.StringFlag{Name: "format", Usage: "`FORMAT` of the output: markdown, or json for scripts (init, pre-compact, end; not for the hook entries)"}
	common := []cli.Flag{timeout, configFlag, dryRun, noLog, format}
	return &cli.App{
		Name:            "session-hooks",
		Usage:           "restore a coding agent's context at Claude Code session boundaries",
		UsageText:       "session-hooks <init|pre-compact|end> [--compact-recovery]  (reads the hook input on stdin)",
		Version:         version(),
		Writer:          stdout,
		ErrWriter:       stdout,
		HideHelpCommand: true,
		ExitErrHandler:  func(*cli.Context, error) {},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				fmt.Fprintf(stdout, "session-hooks: unknown command %q\n", c.Args().First())
			}
			fmt.Fprintln(stdout, usageLine)
			return nil
		},
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			fmt.Fprintf(stdout, "session-hooks: %v\n%s\n", err, usageLine)
			return nil
		},
		Commands: []*cli.Command{
			{
				Name:  "init",
				Usage: "SessionStart: branch, recent commits, status, diff stat against the upstream",
				Description: "With --compact-recovery (SessionStart source \"compact\"), also re-injects the\n" +
					"snapshot pre-compact saved for this session. Writes .claude/logs/session-init.md.",
				Flags: append([]cli.Flag{&cli.BoolFlag{Name: "compact-recovery", Usage: "append the pre-compaction snapshot"}}, common...),
				Action: hook("init", 10*time.Second, func(c *cli.Context) handler {
					recovery := c.Bool("compact-recovery")
					return func(h *hookRun) string { return handleInit(h, recovery) }
				}),
				OnUsageError: usageError(stdout),
			},
			{
				Name:         "pre-compact",
				Usage:        "PreCompact: snapshot branch, changes and the work in progress from the transcript",
				Description:  "Writes .claude/logs/pre-compact-state.md and a copy under sessions/<session id>/.",
				Flags:        common,
				Action:       hook("pre-compact", 10*time.Second, func(*cli.Context) handler { return handlePreCompact }),
				OnUsageError: usageError(stdout),
			},
			{
				Name:      "install",
				Usage:     "wire session-hooks into Claude Code's settings.json",
				UsageText: "session-hooks install [--scope project|local|user] [--long-running] [--command CMD] [--no-gitignore]",
				Description: "Adds SessionStart (startup|resume|clear → init, compact → init --compact-recovery), PreCompact,\n" +
					"SessionEnd and, with --long-running, Stop and PostToolUse entries, each with a timeout. Every\n" +
					"other key and hook stays as it was; entries of the Node script are replaced. The previous file\n" +
					"is kept as .bak. Adds .claude/logs/ to .gitignore unless --no-gitignore.",
				Flags: []cli.Flag{scopeFlag(), commandFlag(),
					&cli.BoolFlag{Name: "long-running", Usage: "also wire the Stop and PostToolUse checks"},
					&cli.BoolFlag{Name: "no-gitignore", Usage: "do not add .claude/logs/ to .gitignore"}},
				Action: func(c *cli.Context) error { return cmdInstall(c, stdout) },
			},
			{
				Name:      "uninstall",
				Usage:     "remove session-hooks' entries from settings.json, and nothing else",
				UsageText: "session-hooks uninstall [--scope project|local|user] [--command CMD]",
				Flags:     []cli.Flag{scopeFlag(), commandFlag()},
				Action:    func(c *cli.Context) error { return cmdUninstall(c, stdout) },
			},
			{
				Name:   "status",
				Usage:  "show which events each settings scope wires, and what is wrong with it",
				Flags:  []cli.Flag{commandFlag()},
				Action: func(c *cli.Context) error { return cmdStatus(c, stdout) },
			},
			{
				Name:      "summary",
				Usage:     "summarise a session from .claude/logs/events.jsonl (the latest with --last or no id)",
				UsageText: "session-hooks summary [SESSION_ID | --last] [--format markdown|json]",
				Flags: []cli.Flag{&cli.BoolFlag{Name: "last", Usage: "the latest session"},
					&cli.StringFlag{Name: "format", Usage: "`FORMAT`: markdown or json"}},
				Action: func(c *cli.Context) error { return cmdSummary(c, stdout) },
			},
			{
				Name:   "doctor",
				Usage:  "run every wired event on this project and check its timeout, the logs, the transcripts and git",
				Flags:  []cli.Flag{commandFlag()},
				Action: func(c *cli.Context) error { return cmdDoctor(c, stdout) },
			},
			{
				Name:  "stop",
				Usage: "Stop: with the long-running checks on, block a stop while work is uncommitted or unrecorded",
				Description: "Prints {\"decision\":\"block\",\"reason\":…} once per turn when the work is not committed, the\n" +
					"progress file was not touched this session, or a required file is missing; lets the stop\n" +
					"through on stop_hook_active and on any error of its own. Writes .claude/logs/session-stop.md.",
				Flags:        common,
				Action:       hook("stop", 10*time.Second, func(*cli.Context) handler { return handleStop }),
				OnUsageError: usageError(stdout),
			},
			{
				Name:  "post-tool",
				Usage: "PostToolUse: warn when feature_list.json changed beyond passes, or the context passed a threshold",
				Description: "Prints hookSpecificOutput.additionalContext only when there is something to say; each\n" +
					"context threshold is announced once per session.",
				Flags:        common,
				Action:       hook("post-tool", 5*time.Second, func(*cli.Context) handler { return handlePostTool }),
				OnUsageError: usageError(stdout),
			},
			{
				Name:         "end",
				Usage:        "SessionEnd: final branch, last commit and status",
				Description:  "Writes .claude/logs/session-end.md. Its default deadline is 1s: Claude Code\ncancels a SessionEnd hook after about 1.5s unless a timeout is configured.",
				Flags:        common,
				Action:       hook("end", time.Second, func(*cli.Context) handler { return handleEnd }),
				OnUsageError: usageError(stdout),
			},
		},
	}
}

func scopeFlag() cli.Flag {
	return &cli.StringFlag{Name: "scope", Value: "project", Usage: "`SCOPE`: project (.claude/settings.json), local (.claude/settings.local.json) or user"}
}

func commandFlag() cli.Flag {
	return &cli.StringFlag{Name: "command", Usage: "the command the hooks run (default: this binary's absolute path)"}
}

func usageError(stdout io.Writer) cli.OnUsageErrorFunc {
	return func(c *cli.Context, err error, _ bool) error {
		fmt.Fprintf(stdout, "session-hooks: %v\n%s\n", err, usageLine)
		return nil
	}
}

// deadlineFor reads --timeout, else SESSION_HOOKS_TIMEOUT, else the event's
// default. A bad value falls back to the default with a note.
func deadlineFor(c *cli.Context, def time.Duration) (time.Duration, []string) {
	for _, src := range []struct{ name, value string }{
		{"--timeout", c.String("timeout")},
		{"SESSION_HOOKS_TIMEOUT", os.Getenv("SESSION_HOOKS_TIMEOUT")},
	} {
		if src.value == "" {
			continue
		}
		d, err := parseDuration(src.value)
		if err != nil || d <= 0 {
			return def, []string{fmt.Sprintf("%s=%q is not a duration like 800ms or 5s; using %s", src.name, src.value, def)}
		}
		return d, nil
	}
	return def, nil
}

// parseDuration accepts Go durations and plain seconds ("2.5").
func parseDuration(s string) (time.Duration, error) {
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		return time.Duration(secs * float64(time.Second)), nil
	}
	return time.ParseDuration(s)
}
