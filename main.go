// Command session-hooks is run by coding agents at session boundaries. It tells
// the agent where it was (branch, recent commits, dirty files), snapshots
// the work in progress before a compaction and re-injects it afterwards,
// and leaves markdown logs in .claude/logs/.
//
// This file is wiring only: the hook subcommands come from the event table
// (package hooks), the commands a person runs from the packages that own
// what they change (settings, events).
//
// As a hook it always exits 0 and prints nothing on stderr: a hook that
// fails breaks its user's session, so every problem becomes one line in
// the output instead. The commands a person runs fail loudly instead.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/session-hooks/session-hooks/hooks/protocol"

	"github.com/urfave/cli/v2"

	agents "github.com/session-hooks/session-hooks/agent"
	"github.com/session-hooks/session-hooks/hooks"
	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/internal/completion"
	"github.com/session-hooks/session-hooks/internal/sanitize"
	"github.com/session-hooks/session-hooks/internal/suggest"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/events"
)

// Set at link time by releases (-ldflags "-X main.buildVersion=v1.2.3
// -X main.buildCommit=… -X main.buildDate=…"); go build and go install
// record the commit and its time in the binary, read below otherwise.
var buildVersion, buildCommit, buildDate string

func version() string {
	if buildVersion != "" {
		return buildVersion
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// fullVersion is the version with the commit and the date it was built
// from, which is what a bug report needs.
func fullVersion() string {
	commit, date, dirty := buildCommit, buildDate, false
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, st := range bi.Settings {
			switch {
			case st.Key == "vcs.revision" && commit == "":
				commit = st.Value
			case st.Key == "vcs.time" && date == "":
				date = st.Value
			case st.Key == "vcs.modified":
				dirty = st.Value == "true"
			}
		}
	}
	if len(commit) > 12 {
		commit = commit[:12]
	}
	if commit == "" {
		commit = "unknown"
	} else if dirty {
		commit += "+changes"
	}
	if date == "" {
		date = "unknown"
	}
	return fmt.Sprintf("%s (commit %s, %s)", version(), commit, date)
}

func main() {
	// A reader that goes away must not kill us with SIGPIPE mid-write.
	signal.Ignore(syscall.SIGPIPE)
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// run executes one command line and returns the exit status. Hooks always
// return 0 and print their problems; only the commands a person runs
// (install, uninstall, status, doctor, summary) fail, with their message
// on stderr.
//
// What a person's terminal gets (the person commands' output, help,
// usage errors, every message on stderr) is held and cleaned by the one
// sanitising policy before it is written; a hook's output is cleaned
// where it is printed (hooks.Execute), and reaches stdout directly.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	term, termErr := sanitize.NewWriter(stdout), sanitize.NewWriter(stderr)
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(term, "session-hooks: internal error (%v); nothing was injected. Please report this.\n", v)
			code = 0
		}
		term.Flush()
		termErr.Flush()
	}()
	err := newApp(stdin, stdout, term).Run(args)
	var exit cli.ExitCoder
	switch {
	case errors.As(err, &exit):
		term.Flush() // what was printed comes before the message
		fmt.Fprintln(termErr, exit.Error())
		return exit.ExitCode()
	case err != nil:
		fmt.Fprintf(term, "session-hooks: %v\n%s\n", err, eventtable.UsageLine())
	}
	return 0
}

// newApp wires the commands: hooks print to stdout (their output is
// cleaned where it is made), everything else to term.
func newApp(stdin io.Reader, stdout, term io.Writer) *cli.App {
	app := &cli.App{
		Name:           "session-hooks",
		Usage:          "restore a coding agent's context at its session boundaries (" + agents.Labels() + ")",
		UsageText:      strings.TrimPrefix(eventtable.UsageLine(), "Usage: ") + "  (reads the hook input on stdin)",
		Version:        version(), // --version prints fullVersion, built only then (below)
		Writer:         term,
		ErrWriter:      term,
		ExitErrHandler: func(*cli.Context, error) {},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return unknownCommand(c.App, c.Args().First())
			}
			fmt.Fprintln(term, eventtable.UsageLine())
			return nil
		},
		OnUsageError: personUsageError,
		Flags: []cli.Flag{&cli.StringFlag{Name: "agent", Value: agents.Default,
			Usage: "the agent CLI that runs the hooks, whose transcript they read: " + agents.Names("or") + "; see docs/agents.md"}},
	}
	// The commit and date are read from the build information only when
	// asked for, not on every hook's start.
	cli.VersionPrinter = func(c *cli.Context) { fmt.Fprintln(c.App.Writer, "session-hooks version "+fullVersion()) }
	for _, name := range eventtable.Commands() {
		app.Commands = append(app.Commands, hookCommand(name, stdin, stdout, term))
	}
	app.Commands = append(app.Commands, personCommands(term)...)
	// --agent is the app's flag; each command takes it after its name too
	// (session-hooks status --agent X), as people write it.
	for _, c := range app.Commands {
		c.Flags = append(c.Flags, &cli.StringFlag{Name: "agent", Hidden: true})
	}
	app.Commands = append(app.Commands, &cli.Command{
		Name: "completion", Usage: "print a completion script for bash, zsh or fish",
		UsageText:    "session-hooks completion bash|zsh|fish   (e.g. source <(session-hooks completion bash))",
		OnUsageError: personUsageError,
		Action: func(c *cli.Context) error {
			script, err := completion.Script(c.Args().First(), "session-hooks", completionCommands(c.App))
			if err != nil {
				return cli.Exit("session-hooks: "+err.Error(), 2)
			}
			_, err = io.WriteString(term, script)
			return err
		},
	}, &cli.Command{
		Name: "version", Usage: "print the version, the commit and the date it was built from",
		Action: func(*cli.Context) error { fmt.Fprintln(term, "session-hooks version "+fullVersion()); return nil },
	})
	return app
}

// completionCommands lists the app's commands and their long flags.
func completionCommands(app *cli.App) []completion.Command {
	var out []completion.Command
	for _, c := range app.Commands {
		cc := completion.Command{Name: c.Name, Usage: c.Usage}
		for _, f := range c.Flags {
			cc.Flags = append(cc.Flags, f.Names()[0])
		}
		out = append(out, cc)
	}
	return out
}

// unknownCommand fails with the command meant, when a typo is likely.
// Hooks never get here: the clients run the subcommands install wrote.
func unknownCommand(app *cli.App, name string) error {
	var names []string
	for _, c := range app.Commands {
		names = append(names, c.Name)
	}
	msg := fmt.Sprintf("session-hooks: unknown command %q", name)
	if best := suggest.Closest(name, names); best != "" {
		msg += fmt.Sprintf("; did you mean %q?", best)
	}
	return cli.Exit(msg+"\nRun session-hooks help for the commands.", 2)
}

// personUsageError fails a command a person typed with a bad flag: on
// stderr, exit status 2, with the flag meant when a typo is likely.
func personUsageError(c *cli.Context, err error, _ bool) error {
	msg := "session-hooks: " + err.Error()
	if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
		var known []string
		for _, f := range c.Command.Flags {
			known = append(known, f.Names()...)
		}
		if c.Command.Name == "" {
			for _, f := range c.App.Flags {
				known = append(known, f.Names()...)
			}
		}
		if best := suggest.Closest(strings.TrimPrefix(name, "-"), known); best != "" {
			msg += fmt.Sprintf("; did you mean --%s?", best)
		}
	}
	return cli.Exit(msg, 2)
}

// hookCommand is one hook subcommand: its rows of the event table give
// its usage, its selecting flags and its handlers.
func hookCommand(name string, stdin io.Reader, stdout, term io.Writer) *cli.Command {
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
		OnUsageError: usageError(term, stdin),
		Action: func(c *cli.Context) error {
			began := time.Now()
			e, _ := eventtable.Lookup(name, c.Bool)
			tuneGC()
			deadline, notes := hooks.DeadlineFor(c.String("timeout"), os.Getenv("SESSION_HOOKS_TIMEOUT"), e.Deadline)
			agent, ok := agents.All[agentOf(c)]
			if !ok {
				agent = agents.All[agents.Default]
				notes = append(notes, fmt.Sprintf("--agent %q is not %s; the transcript is read as %s's", agentOf(c), agents.Names("or"), agent.Hooks.Label))
			}
			if os.Getenv("SESSION_HOOKS_PLUGIN") == "1" && agent.PluginStandsDown != nil {
				if agent.PluginStandsDown(e, deadline/20) {
					return nil // the settings run this entry already; the plugin stands down
				}
				deadline -= time.Since(began) // the check was part of the hook's time
			}
			format := c.String("format")
			if format != "" && format != "json" && format != "markdown" {
				notes = append(notes, fmt.Sprintf("--format %q is not markdown or json; using markdown", format))
			}
			hooks.Execute(stdin, stdout, e, hooks.Options{Deadline: deadline, Notes: notes, ConfigPath: c.String("config"),
				DryRun: c.Bool("dry-run"), NoLog: c.Bool("no-log") || os.Getenv("SESSION_HOOKS_NO_LOG") == "1", JSON: format == "json", Version: version(),
				Agent: agent.Hooks, Now: time.Now, Getenv: os.Getenv})
			return nil
		},
	}
}

// personCommands are the commands people type: they fail with a message
// on stderr and a non-zero exit.
func personCommands(stdout io.Writer) []*cli.Command {
	scope := &cli.StringFlag{Name: "scope", Value: "project", Usage: "`SCOPE`: project (.claude/settings.json), local (.claude/settings.local.json) or user"}
	command := &cli.StringFlag{Name: "command", Usage: "the command the hooks run (default: session-hooks at project scope when that is this binary on PATH, else this binary's absolute path)"}
	format := &cli.StringFlag{Name: "format", Usage: "`FORMAT`: markdown or json"}
	followSymlinks := &cli.BoolFlag{Name: "follow-symlinks", Usage: "write through a settings file's links even when they lead outside the project (user scope: Claude's configuration directory)"}
	installFlags := []cli.Flag{scope, command,
		&cli.BoolFlag{Name: "long-running", Usage: "also wire the Stop and PostToolBatch checks (=false removes them; without it, what is wired stays)"},
		&cli.BoolFlag{Name: "dry-run", Usage: "print the change as a diff and write nothing"},
		&cli.BoolFlag{Name: "exec", Usage: "write entries in the exec form (command + args, no shell; Windows without Git Bash needs it). Default: when the claude on PATH is 2.1.330 or later"},
		&cli.BoolFlag{Name: "no-gitignore", Usage: "do not add .claude/logs/ to .gitignore"}, followSymlinks,
		&cli.BoolFlag{Name: "rewrite-strict", Usage: "rewrite a settings file Claude Code refuses (comments, trailing commas) as strict JSON before adding to it"}}
	for _, e := range eventtable.Table {
		if e.InstallFlag != "" {
			installFlags = append(installFlags, &cli.BoolFlag{Name: e.InstallFlag, Usage: "also wire " + e.Event + " → " + e.Command + " (=false removes it)"})
		}
	}
	return []*cli.Command{
		{
			Name:         "install",
			OnUsageError: personUsageError,
			Usage:        "wire session-hooks into an agent's settings (" + agents.All[agents.Default].Hooks.Label + "'s by default)",
			UsageText:    "session-hooks install [--agent " + strings.Join(eventtable.Agents, "|") + "] [--scope project|local|user] [--long-running] [--post-compact] [--command CMD] [--dry-run] [--no-gitignore]",
			Description: "Adds an entry per event of the event table (the README's \"What it writes\"), each with a\n" +
				"timeout, to the agent's hooks:\n" + agents.InstallHelp() +
				"Every other byte of the file stays as it was; a settings file its client would ignore (a comment,\n" +
				"a trailing comma, where it reads strict JSON) is refused unless --rewrite-strict. Entries of the\n" +
				"Node script are replaced, and what is wired already (--long-running, --post-compact) stays unless\n" +
				"told otherwise. At project scope the command is one a teammate's machine runs too (session-hooks on\n" +
				"PATH, or a path from the project directory the client names); local and user scope write this\n" +
				"binary's absolute path. The previous file is\n" +
				"kept in session-hooks/backups in your cache directory. Adds .claude/logs/ to .gitignore unless\n" +
				"--no-gitignore. A flag an agent's install does not take is refused.",
			Flags: installFlags,
			Action: func(c *cli.Context) error {
				a, err := agentFor(c)
				if err != nil {
					return err
				}
				return fail(a.Install(request(c, stdout)))
			},
		},
		{
			Name:         "uninstall",
			OnUsageError: personUsageError,
			Usage:        "remove session-hooks' entries from settings.json, and nothing else",
			UsageText:    "session-hooks uninstall [--scope project|local|user] [--command CMD]",
			Flags:        []cli.Flag{scope, command, followSymlinks},
			Action: func(c *cli.Context) error {
				a, err := agentFor(c)
				if err != nil {
					return err
				}
				return fail(a.Uninstall(request(c, stdout)))
			},
		},
		{
			Name:         "status",
			OnUsageError: personUsageError,
			Usage:        "show which events each settings scope wires, and what is wrong with it",
			Flags:        []cli.Flag{command, format},
			Action: func(c *cli.Context) error {
				a, err := agentFor(c)
				if err != nil {
					return err
				}
				return result(c, stdout, a.Status)
			},
		},
		{
			Name:         "summary",
			OnUsageError: personUsageError,
			Usage:        "summarise a session from .claude/logs/events.jsonl (the latest with --last or no id)",
			UsageText:    "session-hooks summary [SESSION_ID | --last] [--format markdown|json]",
			Flags:        []cli.Flag{&cli.BoolFlag{Name: "last", Usage: "the latest session"}, format},
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
		},
		{
			Name:         "doctor",
			OnUsageError: personUsageError,
			Usage:        "run every wired event on this project and check its timeout, the logs, the transcripts and git",
			Flags:        []cli.Flag{command, format},
			Action: func(c *cli.Context) error {
				a, err := agentFor(c)
				if err != nil {
					return err
				}
				return result(c, stdout, a.Doctor)
			},
		},
	}
}

// tuneGC lets a hook run without collecting garbage until its heap nears
// hookMemoryLimit: a hook lives a few hundred milliseconds, and with Go's
// default the collector ran several times while the index of a 38k-file
// repository was decoded and walked (measured: init 84 -> 69 ms on it,
// peak RSS unchanged at 27 MB). Past the limit it collects as usual, so a
// large transcript still reads in bounded memory. GOGC or GOMEMLIMIT in
// the environment win.
func tuneGC() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(-1)
		debug.SetMemoryLimit(hookMemoryLimit)
	}
}

// hookMemoryLimit is the heap a hook may reach before collecting.
const hookMemoryLimit = 32 << 20

// request is a person command's line for its agent.
func request(c *cli.Context, stdout io.Writer) agents.Request {
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	return agents.Request{Ctx: c.Context, Dir: dir, Getenv: os.Getenv, Home: os.UserHomeDir, Executable: os.Executable, Out: stdout,
		IsSet: c.IsSet, String: c.String, Bool: c.Bool}
}

// agentFor is the agent a person command names, refusing an agent that
// does not exist and a flag that agent's command does not take: a
// --dry-run that wrote anyway, or a --scope that was not heeded, would be
// worse than a refusal.
func agentFor(c *cli.Context) (agents.Agent, error) {
	if err := knownAgent(c); err != nil {
		return agents.Agent{}, err
	}
	a := agents.All[agentOf(c)]
	allowed := a.Flags[c.Command.Name]
	for _, f := range c.FlagNames() {
		if f != "agent" && !slices.Contains(allowed, f) {
			return agents.Agent{}, fail(hookfile.UsageError{Msg: fmt.Sprintf("%s --agent %s does not take --%s", c.Command.Name, agentOf(c), f)})
		}
	}
	return a, nil
}

// printAs prints the JSON of v or its text.
func printAs(out io.Writer, format string, v any, text string) error {
	switch format {
	case "json":
		_, err := io.WriteString(out, facts.JSON(v))
		return err
	case "", "markdown", "text":
		_, err := io.WriteString(out, text)
		return err
	}
	return cli.Exit(fmt.Sprintf("session-hooks: --format %q: use text or json", format), 2)
}

// fail turns a command's error into its message on stderr and its exit
// status: 2 for a mistake in the command line, 1 for the rest.
func fail(err error) error {
	if err == nil {
		return nil
	}
	var usage hookfile.UsageError
	if errors.As(err, &usage) {
		return cli.Exit("session-hooks: "+err.Error(), 2)
	}
	return cli.Exit("session-hooks: "+err.Error(), 1)
}

// usageError answers a hook subcommand's bad flag: run by a client
// (a payload on stdin) it keeps the hook contract, exit 0 and the problem
// on stdout; typed by a person (stdin a terminal) it fails as any typo
// does, on stderr with exit 2 and the flag meant.
func usageError(stdout io.Writer, stdin io.Reader) cli.OnUsageErrorFunc {
	return func(c *cli.Context, err error, sub bool) error {
		if protocol.IsTerminal(stdin) {
			return personUsageError(c, err, sub)
		}
		fmt.Fprintf(stdout, "session-hooks: %v\n%s\n", err, eventtable.UsageLine())
		return nil
	}
}

// result runs status or doctor and reports what it found.
func result(c *cli.Context, stdout io.Writer, run func(agents.Request) (agents.Result, error)) error {
	res, err := run(request(c, stdout))
	if err != nil {
		return fail(err)
	}
	return report(stdout, c.String("format"), res.Data, res.Text, res.Problems)
}

// report prints a person command's result as text or JSON, and fails with
// the number of problems it found: non-zero, so that CI can gate on it.
func report(stdout io.Writer, format string, data any, text string, problems int) error {
	if err := printAs(stdout, format, data, text); err != nil {
		return err
	}
	if problems > 0 {
		return cli.Exit(fmt.Sprintf("\n%d problem(s) found.", problems), 1)
	}
	return nil
}

// agentOf is the agent --agent names, after the command's name or before
// it; the registry's default when neither does.
func agentOf(c *cli.Context) string {
	for _, ctx := range c.Lineage() {
		if ctx.IsSet("agent") {
			return ctx.String("agent")
		}
	}
	return agents.Default
}

// knownAgent fails a person's command whose --agent names no agent
// session-hooks serves.
func knownAgent(c *cli.Context) error {
	a := agentOf(c)
	if _, ok := agents.All[a]; ok {
		return nil
	}
	return cli.Exit(fmt.Sprintf("session-hooks: --agent %q: the agents are %s", a, agents.Names("and")), 2)
}
