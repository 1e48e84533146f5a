// Package agent is the registry: the one list of the clients session-hooks
// serves, each with its adapter (how its hooks map onto the contract,
// package hooks/protocol) and its person commands (install, uninstall,
// status, doctor, with the flags each takes). main picks a client here by
// its --agent name and names none itself; adding a client is a folder
// under agent/ and its line in Clients.
package agent

import (
	"fmt"
	"strings"

	"github.com/session-hooks/session-hooks/agent/claude"
	claudeinstall "github.com/session-hooks/session-hooks/agent/claude/settings"
	"github.com/session-hooks/session-hooks/agent/codex"
	codexinstall "github.com/session-hooks/session-hooks/agent/codex/install"
	"github.com/session-hooks/session-hooks/agent/copilot"
	copilotinstall "github.com/session-hooks/session-hooks/agent/copilot/install"
	"github.com/session-hooks/session-hooks/agent/droid"
	droidinstall "github.com/session-hooks/session-hooks/agent/droid/install"
	"github.com/session-hooks/session-hooks/agent/gemini"
	geminiinstall "github.com/session-hooks/session-hooks/agent/gemini/install"
	"github.com/session-hooks/session-hooks/agent/opencode"
	opencodeinstall "github.com/session-hooks/session-hooks/agent/opencode/install"
	"github.com/session-hooks/session-hooks/agent/qwen"
	qweninstall "github.com/session-hooks/session-hooks/agent/qwen/install"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/install"
	"github.com/session-hooks/session-hooks/install/hookfile"
)

// Client is one client: its adapter and its person commands.
type Client struct {
	Hooks protocol.Agent
	install.Commands
}

// Clients are every client, in --agent's order; the first is the
// default, whose settings name the contract's events and no --agent.
var Clients = []Client{
	{claude.Adapter, claudeinstall.Commands},
	{codex.Adapter, codexinstall.Commands},
	{gemini.Adapter, geminiinstall.Commands},
	{copilot.Adapter, copilotinstall.Commands},
	{qwen.Adapter, qweninstall.Commands},
	{opencode.Adapter, opencodeinstall.Commands},
	{droid.Adapter, droidinstall.Commands},
}

// All are the clients, by the name --agent gives them.
var All = func() map[string]Client {
	m := map[string]Client{}
	for _, c := range Clients {
		m[c.Hooks.Name] = c
	}
	return m
}()

// Default is the client of a command that names none.
var Default = Clients[0].Hooks.Name

// The installs read settings entries by the same list: an --agent they
// name is known, and only the default's entries name the contract's events.
func init() { hookfile.Register(Order(), Default) }

// Order is the clients' names, in --agent's order.
func Order() []string {
	var n []string
	for _, c := range Clients {
		n = append(n, c.Hooks.Name)
	}
	return n
}

// Names are the clients' names, in --agent's order, for messages: "claude,
// codex, gemini and copilot" (or "… or copilot").
func Names(conjunction string) string { return list(Order(), conjunction) }

// Labels are the clients as people name them: "Claude Code, Codex CLI,
// Gemini CLI and GitHub Copilot CLI".
func Labels() string {
	var l []string
	for _, c := range Clients {
		l = append(l, c.Hooks.Label)
	}
	return list(l, "and")
}

func list(n []string, conjunction string) string {
	return strings.Join(n[:len(n)-1], ", ") + " " + conjunction + " " + n[len(n)-1]
}

// Markdown is the README's table of agents, in --agent's order.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| agent | `--agent` | gets | not yet |\n|---|---|---|---|\n")
	for _, c := range Clients {
		a := c.Hooks
		fmt.Fprintf(&b, "| %s %s | `%s` | %s | %s |\n", a.Label, a.Versions, a.Name, a.Gets, a.NotYet)
	}
	return b.String()
}

// InstallHelp is where install writes for each client, one line each.
func InstallHelp() string {
	var b strings.Builder
	for _, c := range Clients {
		fmt.Fprintf(&b, "  --agent %-8s %s\n", c.Hooks.Name, c.Wires)
	}
	return b.String()
}
