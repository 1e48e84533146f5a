// Command session-hooks is run by coding agents at session boundaries. It tells
// the agent where it was (branch, recent commits, dirty files), snapshots
// the work in progress before a compaction and re-injects it afterwards,
// and leaves markdown logs in .claude/logs/.
//
// This file is wiring only: the hook subcommands (init.go, precompact.go,
// end.go and the rest beside them) each answer rows of the event table
// through package hooks; the commands a person runs (install.go,
// status.go, summary.go) take their flags from the client --agent names,
// through the registry (package agent), which is the only place a client
// is named.
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

	"github.com/urfave/cli/v2"

	agents "github.com/session-hooks/session-hooks/agent"
	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/internal/completion"
	"github.com/session-hooks/session-hooks/internal/sanitize"
	"github.com/session-hooks/session-hooks/internal/suggest"
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
	err := newApp(stdin, stdout, term, agentArg(args)).Run(args)
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

// newApp wires the commands for the client named (the registry's default
// when it names none it knows): hooks print to stdout (their output is
// cleaned where it is made), everything else to term.
func newApp(stdin io.Reader, stdout, term io.Writer, name string) *cli.App {
	client, ok := agents.All[name]
	if !ok {
		client = agents.All[agents.Default] // the command fails on the name (knownAgent)
	}
	usageErr := personUsageError(name)
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
		OnUsageError: usageErr,
		Flags: []cli.Flag{&cli.StringFlag{Name: "agent", Value: agents.Default,
			Usage: "the agent CLI that runs the hooks, whose transcript they read: " + agents.Names("or") + "; see docs/agents.md"}},
	}
	// The commit and date are read from the build information only when
	// asked for, not on every hook's start.
	cli.VersionPrinter = func(c *cli.Context) { fmt.Fprintln(c.App.Writer, "session-hooks version "+fullVersion()) }
	h := hookIO{stdin: stdin, stdout: stdout, term: term}
	app.Commands = []*cli.Command{initCommand(h), preCompactCommand(h), postCompactCommand(h), endCommand(h),
		stopCommand(h), postToolCommand(h), modelSwitchCommand(h),
		installCommand(term, client, usageErr), uninstallCommand(term, client, usageErr),
		statusCommand(term, client, usageErr), summaryCommand(term, usageErr), exportCommand(term, usageErr), doctorCommand(term, client, usageErr)}
	// --agent is the app's flag; each command takes it after its name too
	// (session-hooks status --agent X), as people write it.
	for _, c := range app.Commands {
		c.Flags = append(c.Flags, &cli.StringFlag{Name: "agent", Hidden: true})
	}
	app.Commands = append(app.Commands, &cli.Command{
		Name: "completion", Usage: "print a completion script for bash, zsh or fish",
		UsageText:    "session-hooks completion bash|zsh|fish   (e.g. source <(session-hooks completion bash))",
		OnUsageError: usageErr,
		Action: func(c *cli.Context) error {
			script, err := completion.Script(c.Args().First(), "session-hooks", completionCommands(stdin, stdout, term))
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

// agentArg is the client the command line names with --agent, before or
// after the command's name ("" when it names none): person commands take
// that client's flags, and offer only those in their help.
func agentArg(args []string) string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		for _, prefix := range []string{"--agent", "-agent"} {
			if v, ok := strings.CutPrefix(a, prefix+"="); ok {
				return v
			}
			if a == prefix && i+1 < len(args) {
				return args[i+1]
			}
		}
	}
	return ""
}

// completionCommands lists the commands and their long flags, every
// client's flags for each person command: completion serves them all.
func completionCommands(stdin io.Reader, stdout, term io.Writer) []completion.Command {
	var out []completion.Command
	index := map[string]int{}
	for _, name := range agents.Order() {
		for _, c := range newApp(stdin, stdout, term, name).Commands {
			i, seen := index[c.Name]
			if !seen {
				i, index[c.Name] = len(out), len(out)
				out = append(out, completion.Command{Name: c.Name, Usage: c.Usage})
			}
			for _, f := range c.Flags {
				if n := f.Names()[0]; !slices.Contains(out[i].Flags, n) {
					out[i].Flags = append(out[i].Flags, n)
				}
			}
		}
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
