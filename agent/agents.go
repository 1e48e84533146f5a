// Package agents is the one map of the agent CLIs session-hooks serves:
// for each, the hooks' adapter (how its payload, transcript and replies
// read) and the commands a person runs for it (install, uninstall, status,
// doctor), with the flags each takes. main picks an agent here by its
// --agent name and names none itself; adding an agent is a folder under
// agent/, a file here and its line in All.
package agent

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/agent/claude"
	"github.com/session-hooks/session-hooks/agent/codex"
	"github.com/session-hooks/session-hooks/agent/copilot"
	"github.com/session-hooks/session-hooks/agent/gemini"
	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/hooks/protocol"
)

// Request is a person command as typed: where, the environment, and its
// flags, read through the command line's own accessors.
type Request struct {
	Ctx        context.Context
	Dir        string // where the command was run
	Getenv     func(string) string
	Home       func() (string, error)
	Executable func() (string, error)
	Out        io.Writer
	IsSet      func(flag string) bool
	String     func(flag string) string
	Bool       func(flag string) bool
}

// boolFlag is a flag as given: nil when it was not.
func (r Request) boolFlag(name string) *bool {
	if !r.IsSet(name) {
		return nil
	}
	on := r.Bool(name)
	return &on
}

// Result is what status or doctor found: the data (printed as JSON with
// --format json), the text for a person, and the number of problems (the
// command fails when there is one).
type Result struct {
	Data     any
	Text     string
	Problems int
}

// Agent is one agent CLI.
type Agent struct {
	Hooks protocol.Agent
	// Wires says where install writes, for install's help.
	Wires string
	// Flags are, by command, the flags its install, uninstall, status and
	// doctor take besides --agent: any other is refused, not ignored.
	Flags              map[string][]string
	Install, Uninstall func(Request) error
	Status, Doctor     func(Request) (Result, error)
	// PluginStandsDown, for a client with a plugin, says whether the
	// settings wire the row's entry already (checked within the time
	// given): the plugin's hook then does nothing.
	PluginStandsDown func(e eventtable.Event, within time.Duration) bool
}

// All are the agents, by the name --agent gives them.
var All = map[string]Agent{
	claude.Adapter.Name:  Claude,
	codex.Adapter.Name:   Codex,
	gemini.Adapter.Name:  Gemini,
	copilot.Adapter.Name: Copilot,
}

// Default is the agent of a command that names none.
var Default = eventtable.Agents[0]

// Names are the agents' names, in --agent's order, for messages: "claude,
// codex, gemini and copilot" (or "… or copilot").
func Names(conjunction string) string {
	n := eventtable.Agents
	return strings.Join(n[:len(n)-1], ", ") + " " + conjunction + " " + n[len(n)-1]
}

// Labels are the agents as people name them, in --agent's order: "Claude
// Code, Codex CLI, Gemini CLI and GitHub Copilot CLI".
func Labels() string {
	var l []string
	for _, name := range eventtable.Agents {
		l = append(l, All[name].Hooks.Label)
	}
	return strings.Join(l[:len(l)-1], ", ") + " and " + l[len(l)-1]
}

// Markdown is the README's table of agents, in --agent's order.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| agent | `--agent` | gets | not yet |\n|---|---|---|---|\n")
	for _, name := range eventtable.Agents {
		a := All[name].Hooks
		fmt.Fprintf(&b, "| %s %s | `%s` | %s | %s |\n", a.Label, a.Versions, a.Name, a.Gets, a.NotYet)
	}
	return b.String()
}

// InstallHelp is where install writes for each agent, one line each.
func InstallHelp() string {
	var b strings.Builder
	for _, name := range eventtable.Agents {
		fmt.Fprintf(&b, "  --agent %-8s %s\n", name, All[name].Wires)
	}
	return b.String()
}
