// Package install wires session-hooks into GitHub Copilot CLI 1.0.102: at
// project scope a hooks file of its own, .github/hooks/session-hooks.json
// ({"version": 1, "hooks": {…}}, which Copilot CLI runs in a folder the
// user trusts); at user scope the hooks member of Copilot CLI's
// settings.json (COPILOT_HOME, else ~/.copilot), same shape. Each entry is
// {"type": "command", "bash": …, "powershell": …, "timeoutSec": …}; the
// entries come from the event table, by Copilot CLI's names for its rows.
package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	contract "github.com/session-hooks/session-hooks/install"

	"github.com/session-hooks/session-hooks/agent/copilot"
	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/install/backup"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/jsonedit"
	"github.com/session-hooks/session-hooks/internal/jsondepth"
	"github.com/tailscale/hujson"
	"github.com/tidwall/gjson"
)

// Entry is one hook of ours: Copilot CLI's event, the command, its timeout
// in seconds.
type Entry struct {
	Event      string
	Command    string
	TimeoutSec int
}

// Entries are the table's rows Copilot CLI has an event for, run by
// program; the long-running checks (agentStop) only with longRunning.
func Entries(program string, longRunning bool) []Entry {
	var out []Entry
	for _, e := range eventtable.Table {
		args := strings.Join(e.Args(), " ")
		if !e.Installed(longRunning, func(string) bool { return false }) {
			continue
		}
		for _, event := range copilot.Events[args] {
			out = append(out, Entry{Event: event, Command: program + " --agent copilot " + args, TimeoutSec: e.Timeout})
		}
	}
	return out
}

// Options say what to install where.
type Options struct {
	Path    string // the file (Path gives it for a scope)
	Program string // how the entries run session-hooks
	// LongRunning, when set, adds (true) or removes (false) the checks on
	// agentStop; unset, what is wired stays.
	LongRunning *bool
	DryRun      bool
	Out         io.Writer
}

// Path is the file of a scope: the project's .github/hooks/session-hooks.json
// (root is the project's root), or Copilot CLI's settings.json in home.
func Path(scope, root, home string) (string, error) {
	switch scope {
	case "project", "":
		return filepath.Join(root, ".github", "hooks", "session-hooks.json"), nil
	case "user":
		if home == "" {
			return "", errors.New("cannot find Copilot CLI's folder: set COPILOT_HOME or HOME")
		}
		return filepath.Join(home, "settings.json"), nil
	}
	return "", hookfile.UsageError{Msg: fmt.Sprintf("--scope %q: Copilot CLI's scopes are project and user", scope)}
}

// projectFile says whether path is a hooks file of our own (the project
// scope's), which holds "version" and which uninstall may remove.
func projectFile(path string) bool {
	return filepath.Base(path) == "session-hooks.json" && filepath.Base(filepath.Dir(path)) == "hooks"
}

// Install writes our entries into the file; every other byte stays. With
// DryRun it prints the change as a diff and writes nothing.
func Install(opt Options) error {
	return change(opt.Path, opt.Out, opt.DryRun, func(doc []byte) ([]byte, error) {
		lr := opt.LongRunning != nil && *opt.LongRunning
		if opt.LongRunning == nil && doc != nil {
			if d, err := jsonedit.Parse(doc); err == nil {
				lr = slices.ContainsFunc(ours(d), func(e Entry) bool { return e.Event == copilot.Events["stop"][0] })
			}
		}
		want := Entries(opt.Program, lr)
		if doc == nil && projectFile(opt.Path) {
			return fresh(want), nil
		}
		return edit(doc, want)
	})
}

// Uninstall removes our entries; a file (and the folder) install created
// goes when nothing else is left in it.
func Uninstall(path string, out io.Writer) error {
	return change(path, out, false, func(doc []byte) ([]byte, error) {
		if doc == nil {
			return nil, nil
		}
		return edit(doc, nil)
	})
}

func change(path string, out io.Writer, dryRun bool, edit func([]byte) ([]byte, error)) error {
	doc, err := readFile(path)
	if err != nil {
		return err
	}
	js, err := edit(doc)
	if err != nil {
		return fmt.Errorf("cannot edit %s: %v. The file is left untouched.", path, err)
	}
	if bytes.Equal(js, doc) {
		fmt.Fprintf(out, "%s needs no change.\n", path)
		return nil
	}
	if dryRun {
		contract.ShowChange(out, path, doc, js)
		return nil
	}
	dir := filepath.Dir(path)
	if removed, err := removeEmpty(path, js); err != nil || removed {
		if err == nil {
			fmt.Fprintf(out, "Removed %s: install created it and it holds nothing else.\n", path)
			// The folders install made for it (.github/hooks, .github),
			// each only when empty.
			for d := dir; backup.CreatedByInstall(d) && os.Remove(d) == nil; d = filepath.Dir(d) {
				backup.UnmarkCreated(d)
			}
		}
		return err
	}
	kept, err := contract.Save(path, fenceOf(path), doc, doc != nil, js, 0o644)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Wrote %s.\n", path)
	if kept != "" {
		fmt.Fprintf(out, "The previous version is kept as %s.\n", kept)
	}
	return nil
}

// fenceOf is the folder a write of path stays in: the repository, for its
// .github/hooks file (a committed .github or hooks folder that links out
// of it is refused); Copilot CLI's own folder, for the user's settings.
func fenceOf(path string) contract.Fence {
	if projectFile(path) {
		return contract.Fence{Root: filepath.Dir(filepath.Dir(filepath.Dir(path)))}
	}
	return contract.Fence{Root: filepath.Dir(path)}
}

// removeEmpty removes the file at path when install created it and js,
// what would be written back, holds nothing but an empty hooks object
// (and the hooks file's version).
func removeEmpty(path string, js []byte) (bool, error) {
	v := gjson.ParseBytes(js)
	empty := v.IsObject()
	v.Get("hooks").ForEach(func(_, list gjson.Result) bool {
		empty = empty && list.IsArray() && len(list.Array()) == 0
		return empty
	})
	v.ForEach(func(k, _ gjson.Result) bool {
		empty = empty && (k.Str == "hooks" || (k.Str == "version" && projectFile(path)))
		return empty
	})
	if !empty || !backup.CreatedByInstall(path) {
		return false, nil
	}
	if err := os.Remove(path); err != nil {
		return false, err
	}
	backup.UnmarkCreated(path)
	return true, nil
}

// readFile is the file's bytes, nil when there is none, read as every
// settings file is (hookfile.ReadFile: bounded, never blocking); a link
// or a folder is refused, since the write replaces the file itself.
func readFile(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file; session-hooks edits only a file it can read and replace", path)
	}
	return hookfile.ReadFile(path)
}

// hook is an entry as Copilot CLI reads it. powershell is the same
// command where it needs no quoting (Windows runs that one).
type hook struct {
	Type       string `json:"type"`
	Bash       string `json:"bash"`
	Powershell string `json:"powershell,omitempty"`
	TimeoutSec int    `json:"timeoutSec"`
}

func hookOf(e Entry) hook {
	h := hook{Type: "command", Bash: e.Command, TimeoutSec: e.TimeoutSec}
	if !strings.ContainsAny(e.Command, `'"$`+"`") {
		h.Powershell = e.Command
	}
	return h
}

// fresh is a new hooks file holding want.
func fresh(want []Entry) []byte {
	hooks := map[string][]hook{}
	var order []string
	for _, e := range want {
		if _, ok := hooks[e.Event]; !ok {
			order = append(order, e.Event)
		}
		hooks[e.Event] = append(hooks[e.Event], hookOf(e))
	}
	var b bytes.Buffer
	b.WriteString("{\n  \"version\": 1,\n  \"hooks\": {")
	for i, ev := range order {
		list, _ := json.MarshalIndent(hooks[ev], "    ", "  ")
		sep := ","
		if i == len(order)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "\n    %q: %s%s", ev, list, sep)
	}
	b.WriteString("\n  }\n}\n")
	return b.Bytes()
}

// edit removes our entries from doc and adds want (none: uninstall),
// splicing the bytes so that the rest stays as written. A file already
// holding exactly want is left as it is.
func edit(doc []byte, want []Entry) ([]byte, error) {
	if err := jsondepth.Check(doc, jsondepth.Max); err != nil {
		return nil, err
	}
	d, err := jsonedit.Parse(doc)
	if err != nil {
		return nil, fmt.Errorf("it is not JSON (%v)", err)
	}
	if _, ok := d.Root().Value.(*hujson.Object); !ok {
		return nil, errors.New("it is not a JSON object")
	}
	if err := d.Duplicates(d.Root(), "the key", "Copilot CLI"); err != nil {
		return nil, err
	}
	hooks := jsonedit.Member(d.Root(), "hooks")
	if hooks != nil {
		if _, ok := hooks.Value.(*hujson.Object); !ok {
			return nil, errors.New(`its "hooks" is not an object`)
		}
		if err := d.Duplicates(hooks, "the hook event", "Copilot CLI"); err != nil {
			return nil, err
		}
	}
	if slices.Equal(ours(d), want) {
		return doc, nil
	}
	if err := removeOurs(d); err != nil {
		return nil, err
	}
	for _, e := range want {
		if err := add(d, e); err != nil {
			return nil, err
		}
	}
	return d.Bytes(), nil
}

// IsOurs says whether a hook's command runs session-hooks for Copilot CLI:
// a session-hooks program, then --agent copilot.
func IsOurs(cmd string) bool {
	words := strings.Fields(cmd)
	for i := 0; i+2 < len(words); i++ {
		w := strings.Trim(words[i], `'"`)
		name := strings.TrimSuffix(w[strings.LastIndexAny(w, `/\`)+1:], ".exe")
		if name == "session-hooks" && words[i+1] == "--agent" && words[i+2] == "copilot" {
			return true
		}
	}
	return false
}

// ours are our entries in d, in the file's order.
func ours(d *jsonedit.Doc) []Entry {
	var out []Entry
	js, _ := hookfile.Parse(d.Bytes())
	gjson.GetBytes(js, "hooks").ForEach(func(event, list gjson.Result) bool {
		for _, h := range list.Array() {
			if cmd := h.Get("bash").Str; IsOurs(cmd) {
				out = append(out, Entry{Event: event.Str, Command: cmd, TimeoutSec: int(h.Get("timeoutSec").Int())})
			}
		}
		return true
	})
	return out
}

// removeOurs takes out each entry of ours, the newest first, and the
// event (and the hooks member) when Add made it for ours alone.
func removeOurs(d *jsonedit.Doc) error {
	for {
		hooks := jsonedit.Member(d.Root(), "hooks")
		event, i := lastOurs(hooks)
		if event == "" {
			return nil
		}
		list := jsonedit.Member(hooks, event)
		var err error
		switch {
		case jsonedit.Count(list) > 1 || !d.MadeByAdd(hooks, event):
			err = d.Remove(list, i)
		case jsonedit.Count(hooks) > 1 || !d.MadeByAdd(d.Root(), "hooks"):
			err = d.Remove(hooks, jsonedit.MemberIndex(hooks, event))
		default:
			err = d.Remove(d.Root(), jsonedit.MemberIndex(d.Root(), "hooks"))
		}
		if err != nil {
			return err
		}
	}
}

// lastOurs is the event and index of the last entry of ours in hooks;
// "" when there is none (the index then means nothing).
func lastOurs(hooks *hujson.Value) (string, int) {
	if hooks == nil {
		return "", 0
	}
	o, _ := hooks.Value.(*hujson.Object)
	if o == nil {
		return "", 0
	}
	for m := len(o.Members) - 1; m >= 0; m-- {
		list, _ := o.Members[m].Value.Value.(*hujson.Array)
		if list == nil {
			continue
		}
		for i := len(list.Elements) - 1; i >= 0; i-- {
			e := list.Elements[i]
			if js, _ := hookfile.Parse(e.Pack()); IsOurs(gjson.GetBytes(js, "bash").Str) {
				name, _ := o.Members[m].Name.Value.(hujson.Literal)
				return name.String(), i
			}
		}
	}
	return "", 0
}

// add appends one entry where Copilot CLI reads it.
func add(d *jsonedit.Doc, e Entry) error {
	hooks := jsonedit.Member(d.Root(), "hooks")
	if hooks == nil {
		return d.Add(d.Root(), "hooks", map[string][]hook{e.Event: {hookOf(e)}})
	}
	if list := jsonedit.Member(hooks, e.Event); list != nil {
		if _, ok := list.Value.(*hujson.Array); !ok {
			return fmt.Errorf("its hooks.%s is not a list", e.Event)
		}
		return d.Add(list, "", hookOf(e))
	}
	return d.Add(hooks, e.Event, []hook{hookOf(e)})
}
