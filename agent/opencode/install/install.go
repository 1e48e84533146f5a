// Package install wires session-hooks into OpenCode 1.18: a plugin file
// (the project's .opencode/plugin/session-hooks.js, or the user's in
// OpenCode's configuration folder) that runs the binary on OpenCode's
// events. The file is ours whole: install writes it from plugin.js and
// the entries of the event table, uninstall removes it, and a file of
// that name that is not ours is never touched.
package install

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/session-hooks/session-hooks/agent/opencode"
	"github.com/session-hooks/session-hooks/hooks/eventtable"
	contract "github.com/session-hooks/session-hooks/install"
	"github.com/session-hooks/session-hooks/install/backup"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/internal/safefile"
)

//go:embed plugin.js
var pluginJS []byte

// FileName is the plugin's file in a plugin folder.
const FileName = "session-hooks.js"

// Entry is one hook the plugin runs: on the OpenCode event On, the
// contract's Event (its payload's hook_event_name), the command with the
// row's arguments, killed after Timeout seconds.
type Entry struct {
	On      string `json:"on"`
	Event   string `json:"event"`
	Args    string `json:"args"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

type wired struct {
	Entries []Entry `json:"entries"`
}

// Entries are the hooks the plugin runs, from the event table (with
// longRunning, the checks when the session goes idle too).
func Entries(program string, longRunning bool) []Entry {
	var out []Entry
	for _, e := range eventtable.Table {
		args := strings.Join(e.Args(), " ")
		on, ok := opencode.Events[args]
		if !ok || !e.Installed(longRunning, func(string) bool { return false }) {
			continue
		}
		out = append(out, Entry{On: on, Event: e.Event, Args: args, Timeout: e.Timeout,
			Command: strings.TrimSpace(program + " --agent " + opencode.Adapter.Name + " " + args)})
	}
	return out
}

// marker is where plugin.js holds its entries, as one line of JSON.
const marker = "/*WIRED*/"

// Render is the plugin file running entries.
func Render(entries []Entry) []byte {
	js, _ := json.Marshal(wired{Entries: entries})
	empty := []byte(marker + ` { entries: [] } ` + marker)
	return bytes.Replace(pluginJS, empty, []byte(marker+" "+string(js)+" "+marker), 1)
}

// errNotOurs is a plugin file of our name that install did not write.
var errNotOurs = errors.New("it is not the plugin session-hooks writes")

// Parse reads the entries of a plugin file install wrote.
func Parse(doc []byte) ([]Entry, error) {
	if !bytes.HasPrefix(doc, pluginJS[:bytes.IndexByte(pluginJS, '\n')]) {
		return nil, errNotOurs
	}
	_, rest, ok := bytes.Cut(doc, []byte(marker))
	js, _, ok2 := bytes.Cut(rest, []byte(marker))
	var w wired
	if !ok || !ok2 || json.Unmarshal(js, &w) != nil {
		return nil, fmt.Errorf("%w (its entries cannot be read)", errNotOurs)
	}
	return w.Entries, nil
}

// Path is the plugin file of a scope: project (the repository's
// .opencode/plugin) or user ($XDG_CONFIG_HOME/opencode/plugin, else
// ~/.config/opencode/plugin).
func Path(scope, dir string, getenv func(string) string, home func() (string, error)) (string, error) {
	switch scope {
	case "project", "":
		root, _ := hookfile.ProjectRoot(dir)
		return filepath.Join(root, ".opencode", "plugin", FileName), nil
	case "user":
		config := getenv("XDG_CONFIG_HOME")
		if config == "" {
			h, err := home()
			if err != nil {
				return "", err
			}
			config = filepath.Join(h, ".config")
		}
		return filepath.Join(config, "opencode", "plugin", FileName), nil
	}
	return "", hookfile.UsageError{Msg: fmt.Sprintf("--scope %q: OpenCode's scopes are project and user", scope)}
}

// read is the plugin file at path, nil when there is none.
func read(path string) ([]byte, error) {
	f, err := safefile.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 1<<20))
}

// Install writes the plugin at path. longRunning, when set, adds (true)
// or removes (false) the checks; unset, what the file runs stays. With
// dryRun it prints the change and writes nothing.
func Install(path, program string, longRunning *bool, fence string, out io.Writer, dryRun bool) error {
	old, err := read(path)
	if err != nil {
		return err
	}
	lr := longRunning != nil && *longRunning
	if old != nil {
		entries, err := Parse(old)
		if err != nil {
			return fmt.Errorf("%s: %v; move it away first. Nothing changed", path, err)
		}
		for _, e := range entries {
			lr = lr || (longRunning == nil && e.Args == "stop")
		}
	}
	doc := Render(Entries(program, lr))
	switch {
	case bytes.Equal(doc, old):
		fmt.Fprintf(out, "%s needs no change.\n", path)
		return nil
	case dryRun:
		contract.ShowChange(out, path, old, doc)
		return nil
	}
	kept, err := contract.Save(path, contract.Fence{Root: fence}, old, old != nil, doc, 0o644)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Wrote %s: OpenCode runs session-hooks on %s.\n", path, events(Entries(program, lr)))
	if kept != "" {
		fmt.Fprintf(out, "The previous version is kept as %s.\n", kept)
	}
	return nil
}

// events names the OpenCode events entries run on, each once.
func events(entries []Entry) string {
	var on []string
	for _, e := range entries {
		if !slices.Contains(on, e.On) {
			on = append(on, e.On)
		}
	}
	return strings.Join(on, ", ")
}

// Uninstall removes the plugin at path (and the folders install made for
// it, where they are left empty); a file there that is not ours stays.
func Uninstall(path string, out io.Writer) error {
	old, err := read(path)
	if err != nil {
		return err
	}
	if old == nil {
		fmt.Fprintf(out, "%s is not there: nothing to remove.\n", path)
		return nil
	}
	if _, err := Parse(old); err != nil {
		return fmt.Errorf("%s: %v; left in place", path, err)
	}
	if err := os.Remove(path); err != nil {
		return err
	}
	backup.UnmarkCreated(path)
	fmt.Fprintf(out, "Removed %s.\n", path)
	removeMadeDirs(filepath.Dir(path), out)
	return nil
}

// removeMadeDirs removes dir and the folders above it that install made,
// as long as each is left empty.
func removeMadeDirs(dir string, out io.Writer) {
	for ; backup.CreatedByInstall(dir); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil {
			return
		}
		backup.UnmarkCreated(dir)
		fmt.Fprintf(out, "Removed %s, which install had made and which now held nothing.\n", dir)
	}
}
