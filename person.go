package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	agents "github.com/session-hooks/session-hooks/agent"
	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/install"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/internal/suggest"
	"github.com/urfave/cli/v2"
)

// What every command a person types shares: its client's flags, its
// failures (on stderr, non-zero), and its report as text or JSON.

// flagsOf are the client's flags of a command, as the command line reads
// them.
func flagsOf(client agents.Client, command string) []cli.Flag {
	var out []cli.Flag
	for _, f := range client.Flags[command] {
		if f.Bool {
			out = append(out, &cli.BoolFlag{Name: f.Name, Usage: f.Usage})
		} else {
			out = append(out, &cli.StringFlag{Name: f.Name, Usage: f.Usage, Value: f.Default})
		}
	}
	return out
}

// personUsageError fails a command a person typed with a bad flag: on
// stderr, exit status 2, with the flag meant when a typo is likely, or
// saying that the client named (agent) does not take a flag another's
// command does.
func personUsageError(agent string) cli.OnUsageErrorFunc {
	return func(c *cli.Context, err error, _ bool) error {
		msg := "session-hooks: " + err.Error()
		name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
		if !ok {
			return cli.Exit(msg, 2)
		}
		name = strings.TrimPrefix(name, "-")
		if command := c.Command.Name; command != "" && othersTake(command, name) {
			return cli.Exit(fmt.Sprintf("session-hooks: %s --agent %s does not take --%s", command, cmpOr(agent, agents.Default), name), 2)
		}
		var known []string
		for _, f := range c.Command.Flags {
			known = append(known, f.Names()...)
		}
		if c.Command.Name == "" {
			for _, f := range c.App.Flags {
				known = append(known, f.Names()...)
			}
		}
		if best := suggest.Closest(name, known); best != "" {
			msg += fmt.Sprintf("; did you mean --%s?", best)
		}
		return cli.Exit(msg, 2)
	}
}

// othersTake says whether any client's command takes the flag.
func othersTake(command, flag string) bool {
	for _, c := range agents.Clients {
		if c.Takes(command, flag) {
			return true
		}
	}
	return false
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// request is a person command's line for its agent.
func request(c *cli.Context, stdout io.Writer) install.Request {
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	return install.Request{Ctx: c.Context, Dir: dir, Getenv: os.Getenv, Home: os.UserHomeDir, Executable: os.Executable, Out: stdout,
		IsSet: c.IsSet, String: c.String, Bool: c.Bool}
}

// agentFor is the client a person command names, refusing one that does
// not exist. Its flags are that client's alone (newApp), so a flag it
// does not take was refused before: a --dry-run that wrote anyway, or a
// --scope that was not heeded, would be worse than a refusal.
func agentFor(c *cli.Context) (agents.Client, error) {
	if err := knownAgent(c); err != nil {
		return agents.Client{}, err
	}
	return agents.All[agentOf(c)], nil
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

// result runs status or doctor and reports what it found.
func result(c *cli.Context, stdout io.Writer, run func(install.Request) (install.Result, error)) error {
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
