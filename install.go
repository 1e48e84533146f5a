package main

import (
	"fmt"
	"io"
	"os/exec"
	"strings"

	agents "github.com/session-hooks/session-hooks/agent"
	"github.com/session-hooks/session-hooks/install"
	"github.com/urfave/cli/v2"
)

// installCommand is install: it wires session-hooks into the client's
// settings, with the flags that client's install takes and no other.
func installCommand(stdout io.Writer, client agents.Client, usageErr cli.OnUsageErrorFunc) *cli.Command {
	return &cli.Command{
		Name:         "install",
		OnUsageError: usageErr,
		Usage:        "wire session-hooks into an agent's settings (" + agents.All[agents.Default].Hooks.Label + "'s by default)",
		UsageText:    usageText("install", client),
		Description: "Adds an entry per event of the event table (the README's \"What it writes\"), each with a\n" +
			"timeout, to the agent's hooks:\n" + agents.InstallHelp() +
			"Every other byte of the file stays as it was; a settings file its client would ignore (a comment,\n" +
			"a trailing comma, where it reads strict JSON) is refused. Entries of the Node script are replaced,\n" +
			"and what is wired already (--long-running, --post-compact) stays unless told otherwise. At project\n" +
			"scope the command is one a teammate's machine runs too (session-hooks on PATH, or a path from the\n" +
			"project directory the client names); local and user scope write this binary's absolute path. The\n" +
			"previous file is kept in session-hooks/backups in your cache directory. Adds .claude/logs/ to\n" +
			".gitignore unless --no-gitignore. The flags are the agent's (--agent X install --help).",
		Flags: flagsOf(client, "install"),
		Action: func(c *cli.Context) error {
			a, err := agentFor(c)
			if err != nil {
				return err
			}
			r := request(c, stdout)
			if err := a.Install(r); err != nil {
				return fail(err)
			}
			// At project scope the entries run session-hooks by name: say
			// what each hook costs when that name is npm's launcher.
			if scope := c.String("scope"); (scope == "" || scope == "project") && !c.Bool("dry-run") && c.String("command") == "" {
				if note := install.LauncherNote("session-hooks", r.Dir, exec.LookPath); note != "" {
					fmt.Fprintln(stdout, "Note: "+note+".")
				}
			}
			return nil
		},
	}
}

// uninstallCommand is uninstall: it removes session-hooks' entries from
// the client's settings, and nothing else, and says what it leaves.
func uninstallCommand(stdout io.Writer, client agents.Client, usageErr cli.OnUsageErrorFunc) *cli.Command {
	return &cli.Command{
		Name:         "uninstall",
		OnUsageError: usageErr,
		Usage:        "remove session-hooks' entries from an agent's settings, and nothing else",
		UsageText:    usageText("uninstall", client),
		Flags:        flagsOf(client, "uninstall"),
		Action: func(c *cli.Context) error {
			a, err := agentFor(c)
			if err != nil {
				return err
			}
			req := request(c, stdout)
			if err := a.Uninstall(req); err != nil {
				return fail(err)
			}
			install.LeftBehind(req.Dir, stdout)
			return nil
		},
	}
}

// usageText is a person command's usage line with the client's flags.
func usageText(command string, client agents.Client) string {
	line := "session-hooks " + command + " [--agent " + strings.Join(agents.Order(), "|") + "]"
	for _, f := range client.Flags[command] {
		if f.Bool {
			line += " [--" + f.Name + "]"
		} else {
			line += " [--" + f.Name + " " + strings.ToUpper(f.Name) + "]"
		}
	}
	return line
}
