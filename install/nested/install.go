// Package nested is the install of a client whose hooks live in a
// settings.json in Claude Code's nesting and matchers, with timeouts in
// seconds (Qwen Code, Factory Droid): the project's <Dir>/settings.json,
// or the user's ~/<Dir>/settings.json. Each such client is a Client value
// in its own folder under agent/; this package names none.
package nested

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	contract "github.com/session-hooks/session-hooks/install"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/tidwall/gjson"
)

// Client is one such client.
type Client struct {
	Agent protocol.Agent
	// Events are its hooks for the rows of the event table, by the row's
	// arguments (a row may answer several).
	Events map[string][]string
	Dir    string // its folder: ".qwen"
	// StartDirOnly says that it reads the project's settings only in the
	// directory it starts in (install.BelowTop).
	StartDirOnly bool
	// DefaultTimeout is its timeout for an entry without one.
	DefaultTimeout time.Duration
	// Bookkeeping are the keys it writes into a settings file itself
	// (Qwen Code's schema "$version"): a file install created that holds
	// nothing else is the user's no more than before.
	Bookkeeping []string
}

// Entries are the hooks session-hooks wires into the client, from the
// event table by its names, SessionStart's with the table's matcher (a
// compaction's start gets nothing: its recovery rides the next prompt),
// and with longRunning the check on Stop.
func (c Client) Entries(program string, longRunning bool) []hookfile.Entry {
	var out []hookfile.Entry
	for _, e := range eventtable.Table {
		args := strings.Join(e.Args(), " ")
		if !e.Installed(longRunning, func(string) bool { return false }) {
			continue
		}
		for _, event := range c.Events[args] {
			entry := hookfile.Entry{Event: event, Command: program + " --agent " + c.Agent.Name + " " + args, Timeout: e.Timeout}
			if event == "SessionStart" {
				entry.Matcher = e.Matcher
			}
			out = append(out, entry)
		}
	}
	return out
}

// Path is the settings file of a scope: project (the repository's) or
// user.
func (c Client) Path(scope, dir string, home func() (string, error)) (string, error) {
	switch scope {
	case "project", "":
		root, _ := hookfile.ProjectRoot(dir)
		return filepath.Join(root, c.Dir, "settings.json"), nil
	case "user":
		h, err := home()
		if err != nil {
			return "", err
		}
		return filepath.Join(h, c.Dir, "settings.json"), nil
	}
	return "", hookfile.UsageError{Msg: fmt.Sprintf("--scope %q: %s's scopes are project and user", scope, c.Agent.Label)}
}

// Install writes the entries into the settings file at path; every other
// byte stays. With dryRun it prints the change as a diff and writes
// nothing. longRunning, when set, adds (true) or removes (false) the
// check on Stop; unset, what is wired stays.
func (c Client) Install(path, program string, longRunning *bool, out io.Writer, dryRun bool) error {
	return c.edit(path, out, dryRun, func(doc []byte) (hookfile.Result, error) {
		lr := longRunning != nil && *longRunning
		if longRunning == nil {
			if js, err := hookfile.Parse(doc); err == nil {
				for _, h := range hookfile.Wired(js) {
					lr = lr || (h.Event == "Stop" && hookfile.IsOurs(h.Event, h.Command, "") && strings.HasSuffix(h.Command, " stop"))
				}
			}
		}
		res, err := hookfile.Install(doc, c.Entries(program, lr), "")
		return res, hookfile.ReadBy(err, c.Agent.Label)
	})
}

// Uninstall removes our entries from the settings file at path, and the
// file when install created it and nothing else is left.
func (c Client) Uninstall(path string, out io.Writer) error {
	return c.edit(path, out, false, func(doc []byte) (hookfile.Result, error) {
		res, err := hookfile.Uninstall(doc, "")
		return res, hookfile.ReadBy(err, c.Agent.Label)
	})
}

// edit is the settings file's edit, with what the client writes there
// itself not taken for the user's.
func (c Client) edit(path string, out io.Writer, dryRun bool, change func([]byte) (hookfile.Result, error)) error {
	return contract.EditSettings(path, out, dryRun, change, c.withoutBookkeeping)
}

// withoutBookkeeping is the settings without what the client writes into
// a settings file itself: a file install created that holds nothing else
// is the user's no more than before.
func (c Client) withoutBookkeeping(js []byte) []byte {
	v := gjson.ParseBytes(js)
	if !v.IsObject() || len(c.Bookkeeping) == 0 {
		return js
	}
	only, kept := true, false
	v.ForEach(func(k, _ gjson.Result) bool {
		mine := slices.Contains(c.Bookkeeping, k.Str)
		kept = kept || mine
		only = mine || k.Str == "hooks"
		return only
	})
	if !only || !kept {
		return js
	}
	if h := v.Get("hooks"); h.Exists() && (!h.IsObject() || len(h.Map()) > 0) {
		return js
	}
	return []byte("{}")
}
