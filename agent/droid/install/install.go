// Package install wires session-hooks into Factory Droid 0.225: entries in
// the hooks of a settings.json (the project's .factory/settings.json, or the
// user's ~/.factory/settings.json), in Claude Code's nesting and matchers,
// with timeouts in seconds.
package install

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/session-hooks/session-hooks/agent/droid"
	"github.com/session-hooks/session-hooks/hooks/eventtable"
	contract "github.com/session-hooks/session-hooks/install"
	"github.com/session-hooks/session-hooks/install/backup"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/tidwall/gjson"
)

// Entries are the hooks session-hooks wires into Factory Droid, from the
// event table by Qwen's names (a row may answer several), SessionStart's
// with the table's matcher (a compaction's start gets nothing: its
// recovery rides the next prompt), and with longRunning the check on Stop.
func Entries(program string, longRunning bool) []hookfile.Entry {
	var out []hookfile.Entry
	for _, e := range eventtable.Table {
		args := strings.Join(e.Args(), " ")
		if !e.Installed(longRunning, func(string) bool { return false }) {
			continue
		}
		for _, event := range droid.Events[args] {
			entry := hookfile.Entry{Event: event, Command: program + " --agent " + droid.Adapter.Name + " " + args, Timeout: e.Timeout}
			if event == "SessionStart" {
				entry.Matcher = e.Matcher
			}
			out = append(out, entry)
		}
	}
	return out
}

// Path is the settings file of a scope: project (the repository's .factory)
// or user.
func Path(scope, dir string, home func() (string, error)) (string, error) {
	switch scope {
	case "project", "":
		root, _ := hookfile.ProjectRoot(dir)
		return filepath.Join(root, ".factory", "settings.json"), nil
	case "user":
		h, err := home()
		if err != nil {
			return "", err
		}
		return filepath.Join(h, ".factory", "settings.json"), nil
	}
	return "", hookfile.UsageError{Msg: fmt.Sprintf("--scope %q: Factory Droid's scopes are project and user", scope)}
}

// Install writes the entries into the settings file at path; every other
// byte stays. With dryRun it prints the change as a diff and writes
// nothing. longRunning, when set, adds (true) or removes (false) the
// check on Stop; unset, what is wired stays.
func Install(path, program string, longRunning *bool, out io.Writer, dryRun bool) error {
	return edit(path, out, dryRun, func(doc []byte) (hookfile.Result, error) {
		lr := longRunning != nil && *longRunning
		if longRunning == nil {
			if js, err := hookfile.Parse(doc); err == nil {
				for _, h := range hookfile.Wired(js) {
					lr = lr || (h.Event == "Stop" && hookfile.IsOurs(h.Event, h.Command, "") && strings.HasSuffix(h.Command, " stop"))
				}
			}
		}
		res, err := hookfile.Install(doc, Entries(program, lr), "")
		return res, hookfile.ReadBy(err, droid.Adapter.Label)
	})
}

// Uninstall removes our entries from the settings file at path, and the
// file when install created it and nothing else is left.
func Uninstall(path string, out io.Writer) error {
	return edit(path, out, false, func(doc []byte) (hookfile.Result, error) {
		res, err := hookfile.Uninstall(doc, "")
		return res, hookfile.ReadBy(err, droid.Adapter.Label)
	})
}

func edit(path string, out io.Writer, dryRun bool, change func([]byte) (hookfile.Result, error)) error {
	doc, err := hookfile.ReadFile(path)
	if err != nil {
		return err
	}
	res, err := change(doc)
	if err != nil {
		return fmt.Errorf("cannot edit %s: %v. The file is left untouched.", path, err)
	}
	if !res.Changed {
		fmt.Fprintf(out, "%s needs no change.\n", path)
		return nil
	}
	if dryRun {
		contract.ShowChange(out, path, doc, res.JSON)
		return nil
	}
	removed, err := backup.RemoveCreated(path, withoutBookkeeping(res.JSON))
	if err != nil {
		return err
	}
	if removed {
		fmt.Fprintf(out, "Removed the session-hooks entries (%d), and %s, which install had created and which now held nothing.\n", res.Removed, path)
		return nil
	}
	// The folder holding .factory (the project, or the home) fences the write.
	kept, err := contract.Save(path, contract.Fence{Root: filepath.Dir(filepath.Dir(path))}, doc, doc != nil, res.JSON, 0o600)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Changed %s:\n  %s\n", path, strings.Join(res.Changes, "\n  "))
	if kept != "" {
		fmt.Fprintf(out, "The previous version is kept as %s.\n", kept)
	}
	return nil
}

// withoutBookkeeping is the settings without what Factory Droid writes into a
// settings file itself (its schema's "$version"): a file install created
// that holds nothing else is the user's no more than before.
func withoutBookkeeping(js []byte) []byte {
	v := gjson.ParseBytes(js)
	if !v.IsObject() {
		return js
	}
	only := true
	v.ForEach(func(k, _ gjson.Result) bool {
		only = k.Str == "$version" || k.Str == "hooks"
		return only
	})
	if !only || !v.Get("$version").Exists() {
		return js
	}
	if h := v.Get("hooks"); h.Exists() && (!h.IsObject() || len(h.Map()) > 0) {
		return js
	}
	return []byte("{}")
}
