// Package eventtable is the one list of every event session-hooks handles
// (Table): the subcommand, the event and its matcher, the settings
// timeout, the run's deadline, what it writes, and how install chooses it.
//
// The table drives everything that names an event: the subcommands and
// the usage line, every agent's install entries, status's and doctor's
// checks, the handlers of package hooks (one per row, by its arguments),
// and the README's table of what is written where. It holds data only, so
// that the hooks and every agent's install read it without importing each
// other.
package eventtable

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/hooks/protocol"
)

// Event is one row: a hook entry of the contract's events, and how
// session-hooks answers it.
type Event struct {
	Command string // the subcommand
	Flag    string // a boolean flag of the subcommand that selects this row, or ""
	Event   string // the event (the contract's name, which Claude Code's settings use too)
	Matcher string // settings.json's matcher for it
	Timeout int    // settings.json's timeout, in seconds
	// Deadline is the run's own: it answers by then with what it has.
	Deadline time.Duration
	// LongRunning marks the checks of the long-running discipline, which
	// install adds with --long-running.
	LongRunning bool
	// InstallFlag, when set, is the install flag that adds this row
	// (rows without one are always installed, unless LongRunning).
	InstallFlag string
	// ReplacedBy, when set, is an install flag that installs another row
	// in this one's place.
	ReplacedBy  string
	Logs        []string // what it writes below .claude/logs/, for the docs
	Usage       string
	Description string
}

// Args is what follows the program in the settings entry's command.
func (e Event) Args() []string {
	if e.Flag == "" {
		return []string{e.Command}
	}
	return []string{e.Command, "--" + e.Flag}
}

// Table is every event session-hooks handles, in the order install writes
// them and the docs list them.
var Table = []Event{
	{Command: "init", Event: protocol.SessionStart,
		Matcher: strings.Join([]string{protocol.SourceStartup, protocol.SourceResume, protocol.SourceClear, protocol.SourceFork}, "|"),
		Timeout: 30, Deadline: 10 * time.Second, Logs: []string{"session-init.md"},
		Usage: "SessionStart: branch, recent commits, status, diff stat against the upstream",
		Description: "With --compact-recovery (SessionStart source \"compact\"), also re-injects the\n" +
			"snapshot pre-compact saved for this session. Writes .claude/logs/session-init.md."},
	{Command: "init", Flag: "compact-recovery", Event: protocol.SessionStart, Matcher: protocol.SourceCompact,
		Timeout: 30, Deadline: 10 * time.Second, Logs: []string{"session-init.md"}},
	{Command: "pre-compact", Event: protocol.PreCompact, Timeout: 30, Deadline: 10 * time.Second,
		Logs:        []string{"pre-compact-state.md", "sessions/<session>/pre-compact-state.md", "sessions/<session>/pre-compact-state.json (the snapshot as data)", "checkpoints/<time>-<session>.md (the last 10)"},
		Usage:       "PreCompact: snapshot branch, changes and the work in progress from the transcript",
		Description: "Writes .claude/logs/pre-compact-state.md and a copy under sessions/<session>/."},
	{Command: "post-compact", Event: protocol.PostCompact, Timeout: 30, Deadline: 5 * time.Second, InstallFlag: "post-compact",
		Logs:  []string{"events.jsonl (the compaction, and what its summary lost)", "state/<session>.json"},
		Usage: "PostCompact: record the compaction and which snapshot facts its summary does not mention",
		Description: "Injects nothing (the client reads no PostCompact output). Records the trigger, the size\n" +
			"and hash of compact_summary, and the snapshot facts the summary leaves out; summary shows them."},
	{Command: "end", Event: protocol.SessionEnd, Timeout: 5, Deadline: time.Second,
		Logs:  []string{"session-end.md", "sessions/<session>/session-end.md", "sessions/<session>/handoff.json (what the next session is told)", "handoff.json (the latest of them, which a start reads)"},
		Usage: "SessionEnd: final branch, last commit and status",
		Description: "Writes .claude/logs/session-end.md. Its default deadline is 1s: Claude Code\n" +
			"cancels a SessionEnd hook after about 1.5s unless a timeout is configured."},
	{Command: "stop", Event: protocol.Stop, Timeout: 30, Deadline: 10 * time.Second, LongRunning: true,
		Logs:  []string{"session-stop.md (the latest decision and why)"},
		Usage: "Stop: with the long-running checks on, block a stop while work is uncommitted or unrecorded",
		Description: "Prints {\"decision\":\"block\",\"reason\":…} once per turn when the work is not committed, the\n" +
			"progress file was not touched this session, or a required file is missing; lets the stop\n" +
			"through on stop_hook_active and on any error of its own. Writes .claude/logs/session-stop.md."},
	{Command: "post-tool", Event: protocol.PostToolBatch, Timeout: 30,
		Deadline: 5 * time.Second, LongRunning: true, ReplacedBy: "post-tool-use",
		Logs:  []string{"session-post-tool.md (dry runs only)"},
		Usage: "PostToolBatch (PostToolUse before it): warn when feature_list.json changed beyond passes, or the context passed a threshold",
		Description: "Prints hookSpecificOutput.additionalContext only when there is something to say, once per\n" +
			"batch of parallel tool calls; each context threshold is announced once per session."},
	{Command: "model-switch", Event: protocol.PostModelSwitch, Timeout: 30, Deadline: 5 * time.Second, LongRunning: true,
		Usage: "PostModelSwitch: with the long-running checks on, say the new model's context window and where the context stands in it",
		Description: "Prints hookSpecificOutput.additionalContext with the new window and the context level, and records\n" +
			"the thresholds the new window has passed as announced. Silent without the long-running checks."},
	{Command: "post-tool", Event: protocol.PostToolUse, Matcher: "Write|Edit|MultiEdit|Bash", Timeout: 30,
		Deadline: 5 * time.Second, LongRunning: true, InstallFlag: "post-tool-use",
		Logs:  []string{"session-post-tool.md (dry runs only)"},
		Usage: "PostToolBatch (PostToolUse before it): warn when feature_list.json changed beyond passes, or the context passed a threshold",
		Description: "Prints hookSpecificOutput.additionalContext only when there is something to say, once per\n" +
			"batch of parallel tool calls; each context threshold is announced once per session."},
}

// Commands are the hook subcommands, once each, in table order.
func Commands() []string {
	var out []string
	for _, e := range Table {
		if !slices.Contains(out, e.Command) {
			out = append(out, e.Command)
		}
	}
	return out
}

// Lookup is the row of a subcommand run with the flags set (a flag of the
// subcommand's rows that is on selects its row).
func Lookup(command string, flagSet func(string) bool) (Event, bool) {
	var plain Event
	found := false
	for _, e := range Table {
		if e.Command != command {
			continue
		}
		if e.Flag != "" && flagSet(e.Flag) {
			return e, true
		}
		if e.Flag == "" {
			plain, found = e, true
		}
	}
	return plain, found
}

// Flags are the selecting flags of a subcommand's rows.
func Flags(command string) []string {
	var out []string
	for _, e := range Table {
		if e.Command == command && e.Flag != "" {
			out = append(out, e.Flag)
		}
	}
	return out
}

// UsageLine is what a missing or unknown subcommand prints, as the Node
// script did.
func UsageLine() string {
	var flags []string
	for _, e := range Table {
		if e.Flag != "" {
			flags = append(flags, "[--"+e.Flag+"]")
		}
	}
	return fmt.Sprintf("Usage: session-hooks <%s> %s", strings.Join(Commands(), "|"), strings.Join(flags, " "))
}

// Installed says whether install adds a row, given its options (the
// install flags that are on).
func (e Event) Installed(longRunning bool, flagOn func(string) bool) bool {
	switch {
	case e.LongRunning && !longRunning:
		return false
	case e.ReplacedBy != "" && flagOn(e.ReplacedBy):
		return false
	case e.InstallFlag != "":
		return flagOn(e.InstallFlag)
	}
	return true
}

// Markdown is the README's table of what each event writes.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| event | command | log files (below `.claude/logs/`) | installed |\n|---|---|---|---|\n")
	for _, e := range Table {
		event := e.Event
		if e.Matcher != "" {
			event += " `" + strings.ReplaceAll(e.Matcher, "|", `\|`) + "`"
		}
		var logs []string
		for _, l := range e.Logs {
			name, rest, _ := strings.Cut(l, " ")
			logs = append(logs, strings.TrimSpace("`"+name+"` "+rest))
		}
		var when []string
		if e.LongRunning {
			when = append(when, "`--long-running`")
		}
		if e.InstallFlag != "" {
			when = append(when, "`--"+e.InstallFlag+"`")
		}
		installed := "always"
		if len(when) > 0 {
			installed = "with " + strings.Join(when, " ")
		}
		if e.ReplacedBy != "" {
			installed += ", unless `--" + e.ReplacedBy + "`"
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s |\n", event, strings.Join(e.Args(), " "), strings.Join(logs, ", "), installed)
	}
	b.WriteString("| every run | | `events.jsonl` (one line per run), `state/<session>.json` (session number, start, models, memory file hashes, thresholds announced), `state/numbers/<n>` (the session holding each number), `otlp.json` (with telemetry on: what was sent to the team's collector) | |\n")
	return b.String()
}
