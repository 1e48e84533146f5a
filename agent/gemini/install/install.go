// Package install wires session-hooks into Gemini CLI 0.61.0: entries in
// the hooks of a settings.json (the project's .gemini/settings.json, or
// the user's ~/.gemini/settings.json), in Claude Code's nesting, with
// timeouts in milliseconds.
package install

import (
	"fmt"
	"io"
	"path/filepath"

	contract "github.com/session-hooks/session-hooks/install"

	"github.com/session-hooks/session-hooks/agent/gemini"
	"github.com/session-hooks/session-hooks/install/hookfile"
)

// Entries are the hooks session-hooks wires into Gemini CLI, from the
// event table by Gemini's names: the brief at a session's start, the
// snapshot before a compression (PreCompress runs before every request:
// the snapshot is taken only when the chat changed), the recovery on the
// first prompt after a compression (BeforeAgent: there is no event after
// one), the handoff at the session's end, and with longRunning the checks
// after the agent's answer (AfterAgent). Timeouts are milliseconds.
func Entries(program string, longRunning bool) []hookfile.Entry {
	return hookfile.AgentEntries("gemini", program, gemini.Events, longRunning, false, func(_ string, seconds int) int { return seconds * 1000 })
}

// Path is the settings file of a scope: project (dir's .gemini) or user.
func Path(scope, dir string, home func() (string, error)) (string, error) {
	switch scope {
	case "project", "":
		root, _ := hookfile.ProjectRoot(dir)
		return filepath.Join(root, ".gemini", "settings.json"), nil
	case "user":
		h, err := home()
		if err != nil {
			return "", err
		}
		return filepath.Join(h, ".gemini", "settings.json"), nil
	}
	return "", hookfile.UsageError{Msg: fmt.Sprintf("--scope %q: Gemini CLI's scopes are project and user", scope)}
}

// Install writes the entries into the settings file at path; every other
// byte stays. With dryRun it prints the change as a diff and writes nothing.
// longRunning, when set, adds (true) or removes (false) the checks on
// AfterAgent; unset, what is wired stays.
func Install(path, program string, longRunning *bool, out io.Writer, dryRun bool) error {
	return contract.EditSettings(path, out, dryRun, func(doc []byte) (hookfile.Result, error) {
		lr := longRunning != nil && *longRunning
		if longRunning == nil {
			if js, err := hookfile.Parse(doc); err == nil {
				for _, h := range hookfile.Wired(js) {
					lr = lr || (h.Event == gemini.Events["stop"] && hookfile.IsOurs(h.Event, h.Command, ""))
				}
			}
		}
		res, err := hookfile.Install(doc, Entries(program, lr), "")
		return res, hookfile.ReadBy(err, gemini.Adapter.Label)
	}, nil)
}

// Uninstall removes our entries from the settings file at path, and the
// file (and its folder) when install created them and nothing else is left.
func Uninstall(path string, out io.Writer) error {
	return contract.EditSettings(path, out, false, func(doc []byte) (hookfile.Result, error) {
		res, err := hookfile.Uninstall(doc, "")
		return res, hookfile.ReadBy(err, gemini.Adapter.Label)
	}, nil)
}
