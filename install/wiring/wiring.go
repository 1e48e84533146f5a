// Package wiring is what status and doctor report of an agent's wiring,
// one shape for every agent (docs/json.md): the files its hooks are read
// from, each hook there, what is wrong, and each entry of ours rehearsed.
// A field that does not apply to an agent is empty ("", false, null), as
// everywhere in session-hooks' JSON.
package wiring

import (
	"fmt"
	"strings"
)

// Status is status --format json.
type Status struct {
	SchemaVersion int      `json:"schema_version"`
	Agent         string   `json:"agent"` // as --agent names it
	Scopes        []Scope  `json:"scopes"`
	Warnings      []string `json:"warnings"`
}

// Scope is one file the agent reads hooks from.
type Scope struct {
	Scope string `json:"scope"`
	Path  string `json:"path"`
	// State is present, absent, unreadable, or not-loaded (the client
	// refuses the file as a whole: Claude Code a settings.json with a
	// comment).
	State string `json:"state"`
	Error string `json:"error"` // why it is unreadable or not loaded
	Hooks []Hook `json:"hooks"`
}

// Hook is one hook command a file wires.
type Hook struct {
	Event   string   `json:"event"` // the agent's own name for it
	Matcher string   `json:"matcher"`
	Command string   `json:"command"`
	Timeout *float64 `json:"timeout_s"` // seconds; null when none is set
	Ours    bool     `json:"ours"`
	Exec    bool     `json:"exec"` // written in the exec form (command + args, no shell)
	// Trust is what the client says of the entry where it asks for trust
	// (Codex: trusted, untrusted, modified; unknown when it could not be
	// asked); "" elsewhere.
	Trust string `json:"trust"`
	// StandsDown, for a plugin's entry, is the settings scope that wires
	// the same entry: the plugin's hook then does nothing ("" when it runs).
	StandsDown string `json:"stands_down"`
}

// Seconds is a timeout given in seconds, for Timeout; nil for 0 (none set).
func Seconds(s int) *float64 {
	if s == 0 {
		return nil
	}
	f := float64(s)
	return &f
}

// Doctor is doctor --format json.
type Doctor struct {
	SchemaVersion int         `json:"schema_version"`
	Agent         string      `json:"agent"`
	Project       string      `json:"project"`
	Runs          []DoctorRun `json:"runs"`
	LogsDir       string      `json:"logs_dir"`
	LogsError     string      `json:"logs_error"` // "" when writable
	// Telemetry is what the export to the team's collector did (""
	// when it was never on); TelemetryError what keeps it from sending.
	Telemetry      string `json:"telemetry"`
	TelemetryError string `json:"telemetry_error"`
	Transcripts    string `json:"transcripts_dir"`
	TranscriptN    int    `json:"transcripts"`
	GitEngine      string `json:"git_engine"`
	GitError       string `json:"git_error"`
	// LastRecovery is what became of the latest recovery injected after a
	// compaction in this project: delivered, cut or missing; "" when none.
	LastRecovery string `json:"last_recovery"`
	// Wiring is what is wrong with the entries themselves (matchers,
	// timeouts, trust); StartOutput the characters our SessionStart hooks
	// print at a startup.
	Wiring      []string `json:"wiring"`
	StartOutput int      `json:"start_output_chars"`
	// NotRun are the other tools' SessionStart commands: doctor never runs
	// a command it did not write (a cloned repository's settings are the
	// repository's), so their share of the output limit is not measured.
	NotRun []string `json:"not_run"`
	// StandsDown are the plugin's entries a settings file runs instead:
	// not rehearsed, as the plugin's hook does nothing for them.
	StandsDown []string `json:"plugin_stands_down"`
	Problems   int      `json:"problems"`
}

// DoctorRun is one wired command, run once.
type DoctorRun struct {
	Event   string `json:"event"`
	Command string `json:"command"`
	Result  string `json:"result"` // ok, fail, slow
	Problem string `json:"problem"`
	// Note is what the run costs beyond the rehearsal: the npm launcher
	// starting Node.js before the binary.
	Note       string  `json:"note,omitempty"`
	Ours       bool    `json:"ours"`
	OutputLen  int     `json:"output_chars"`
	DurationMS float64 `json:"duration_ms"`
	TimeoutMS  float64 `json:"timeout_ms"` // what the client allows it
}

// Entry is one hook entry of ours an agent's install writes: Key is what
// tells it apart in the agent's files (its event and arguments), Name how
// a warning names it.
type Entry struct {
	Key, Name string
}

// Coverage is what is wrong with how an agent's files wire its entries:
// those wired in no file, or in more than one (the client then runs each).
// wired maps an entry's Key to the scopes whose file wires it; client is
// the agent's name, files what its files are called ("files",
// "settings"), install the command that wires it.
func Coverage(entries []Entry, wired map[string][]string, client, files, install string) []string {
	var out, missing []string
	for _, e := range entries {
		switch scopes := wired[e.Key]; {
		case len(scopes) == 0:
			missing = append(missing, e.Name)
		case len(scopes) > 1:
			out = append(out, fmt.Sprintf("%s is wired in the %s %s: %s runs each", e.Name, strings.Join(scopes, " and "), files, client))
		}
	}
	if len(missing) == len(entries) {
		return append(out, fmt.Sprintf("session-hooks is not wired for %s: run %s", client, install))
	}
	for _, m := range missing {
		out = append(out, "not wired: "+m+" ("+install+" adds it)")
	}
	return out
}
