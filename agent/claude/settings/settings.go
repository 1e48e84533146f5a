// Package settings is Claude Code's settings.json as session-hooks edits it
// and checks it. It wires session-hooks into a Claude Code settings.json
// without disturbing anything else in it: every other key, hook and matcher
// group stays as it was, in order (edits go through sjson, in place), our
// own entries are recognised by their command, and entries of the Node
// script we replace are migrated. The editing works on bytes; the commands
// people run (install, uninstall, status, doctor) read and write the files.
package settings

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/session-hooks/session-hooks/jsondepth"

	"github.com/session-hooks/session-hooks/agent/claude"
	"github.com/session-hooks/session-hooks/hooks"

	"github.com/tidwall/gjson"
	"github.com/tidwall/pretty"
	"github.com/tidwall/sjson"
)

// Entry is one hook command in one matcher group of one event.
type Entry struct {
	Event, Matcher, Command string
	Timeout                 int // seconds
}

// Desired returns the entries to install for the command cmd (already
// quoted for /bin/sh): every row of the event table that install adds by
// default, the long-running checks with longRunning, and the rows whose
// install flag is among flags. Every entry has a timeout: without one,
// Claude Code cancels SessionEnd after about 1.5 s.
func Desired(cmd string, longRunning bool, flags ...string) []Entry {
	var out []Entry
	for _, e := range hooks.Table {
		if e.Installed(longRunning, func(f string) bool { return slices.Contains(flags, f) }) {
			out = append(out, Entry{e.Claude, e.Matcher, cmd + " " + strings.Join(e.Args(), " "), e.Timeout})
		}
	}
	return out
}

// ShellQuote quotes a path for /bin/sh when it needs it.
func ShellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+,:@%=", r)) {
			safe = false
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Program is the first word of a shell command, unquoted.
func Program(cmd string) string {
	cmd = strings.TrimSpace(cmd)
	if strings.HasPrefix(cmd, "'") {
		var b strings.Builder
		for i := 1; i < len(cmd); i++ {
			switch {
			case cmd[i] == '\'' && strings.HasPrefix(cmd[i:], `'\''`):
				b.WriteByte('\'')
				i += 3
			case cmd[i] == '\'':
				return b.String()
			default:
				b.WriteByte(cmd[i])
			}
		}
		return b.String()
	}
	if strings.HasPrefix(cmd, `"`) {
		if end := strings.IndexByte(cmd[1:], '"'); end >= 0 {
			return cmd[1 : end+1]
		}
	}
	if f := strings.Fields(cmd); len(f) > 0 {
		return f[0]
	}
	return ""
}

// IsOurs recognises a command of ours: its program is a session-hooks
// binary (or the program of the --command given, when set).
func IsOurs(cmd, custom string) bool {
	p := Program(cmd)
	return filepath.Base(p) == "session-hooks" || custom != "" && p == Program(custom)
}

// IsNode recognises the Node script session-hooks replaces.
func IsNode(cmd string) bool { return strings.Contains(cmd, "session-hooks.mjs") }

// ErrNotObject is returned for a settings file that is JSON but not an object.
var ErrNotObject = errors.New("the settings are not a JSON object")

// Parse reads settings JSON that may hold comments and trailing commas (as
// Claude Code accepts), and returns it as plain JSON. Empty input is "{}".
func Parse(b []byte) ([]byte, error) {
	js := stripJSONC(b)
	if len(bytes.TrimSpace(js)) == 0 {
		return []byte("{}"), nil
	}
	if err := jsondepth.Check(js, jsondepth.Max); err != nil {
		return nil, fmt.Errorf("the settings %v", err)
	}
	if !gjson.ValidBytes(js) {
		return nil, errors.New("the settings are not valid JSON (comments and trailing commas are fine)")
	}
	if !gjson.ParseBytes(js).IsObject() {
		return nil, ErrNotObject
	}
	return js, nil
}

// stripJSONC removes // and /* */ comments and trailing commas outside
// strings.
func stripJSONC(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			out = append(out, c)
			if c == '\\' && i+1 < len(b) {
				i++
				out = append(out, b[i])
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
			out = append(out, c)
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			i--
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			end := bytes.Index(b[i+2:], []byte("*/"))
			if end < 0 {
				return append(out, b[i:]...) // unterminated: let validation fail
			}
			i += end + 3
		case c == ']' || c == '}':
			// Drop a comma left dangling before the closing bracket.
			j := len(out) - 1
			for j >= 0 && (out[j] == ' ' || out[j] == '\n' || out[j] == '\t' || out[j] == '\r') {
				j--
			}
			if j >= 0 && out[j] == ',' {
				out = append(out[:j], out[j+1:]...)
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}

// Result says what an edit did.
type Result struct {
	JSON     []byte
	Changed  bool
	Removed  int // our entries taken out
	Migrated int // Node script entries replaced
}

// Install makes the settings hold exactly the wanted entries of ours, each
// in its own matcher group at the end of its event, replacing earlier ones
// of ours and the Node script's. Settings that already hold exactly the
// wanted entries are returned unchanged.
func Install(doc []byte, want []Entry, custom string) (Result, error) {
	js, err := Parse(doc)
	if err != nil {
		return Result{}, err
	}
	if err := checkShape(js); err != nil {
		return Result{}, err
	}
	if has(js, want, custom) {
		return Result{JSON: js}, nil
	}
	res := Result{Changed: true}
	js, res.Removed, res.Migrated, err = remove(js, func(cmd string) bool { return IsOurs(cmd, custom) || IsNode(cmd) })
	if err != nil {
		return Result{}, err
	}
	for _, e := range want {
		group := claude.Group(e.Matcher, e.Command, e.Timeout)
		if js, err = sjson.SetBytes(js, "hooks."+e.Event+".-1", group); err != nil {
			return Result{}, err
		}
	}
	res.JSON = Pretty(js)
	return res, nil
}

// Uninstall removes our entries, and the groups, event lists and hooks
// object our removal left empty.
func Uninstall(doc []byte, custom string) (Result, error) {
	js, err := Parse(doc)
	if err != nil {
		return Result{}, err
	}
	if err := checkShape(js); err != nil {
		return Result{}, err
	}
	js, removed, _, err := remove(js, func(cmd string) bool { return IsOurs(cmd, custom) })
	if err != nil || removed == 0 {
		return Result{JSON: js}, err
	}
	return Result{JSON: Pretty(js), Changed: true, Removed: removed}, nil
}

// checkShape refuses settings whose hooks are not as Claude Code reads
// them, where an edit would have to guess: hooks must be an object, and
// each event a list of matcher groups.
func checkShape(js []byte) error {
	hooks := gjson.GetBytes(js, "hooks")
	if !hooks.Exists() {
		return nil
	}
	if !hooks.IsObject() {
		return errors.New(`"hooks" is not an object; fix or remove it first`)
	}
	var err error
	hooks.ForEach(func(ev, groups gjson.Result) bool {
		if !groups.IsArray() {
			err = fmt.Errorf(`"hooks.%s" is not a list of matcher groups; fix or remove it first`, ev.String())
		}
		return err == nil
	})
	return err
}

// Pretty lays JSON out with two-space indents, keys in their order.
func Pretty(js []byte) []byte {
	return pretty.PrettyOptions(js, &pretty.Options{Indent: "  ", SortKeys: false, Width: 120})
}

// has reports whether the settings hold exactly the wanted entries of ours
// and nothing else of ours or the Node script's.
func has(js []byte, want []Entry, custom string) bool {
	found := 0
	for _, w := range Wired(js) {
		if !IsOurs(w.Command, custom) && !IsNode(w.Command) {
			continue
		}
		match := false
		for _, e := range want {
			if e == (Entry{w.Event, w.Matcher, w.Command, w.Timeout}) {
				match = true
			}
		}
		if !match {
			return false
		}
		found++
	}
	return found == len(want)
}

// remove deletes the hook commands drop matches, then whatever that left
// empty, walking backwards so the indices of what is left stay right.
func remove(js []byte, drop func(string) bool) ([]byte, int, int, error) {
	removed, migrated := 0, 0
	hooks := gjson.GetBytes(js, "hooks")
	if !hooks.IsObject() {
		return js, 0, 0, nil
	}
	var events []string
	hooks.ForEach(func(k, _ gjson.Result) bool { events = append(events, k.String()); return true })
	var err error
	for _, ev := range events {
		groups := hooks.Get(escape(ev)).Array()
		emptied := 0
		for gi := len(groups) - 1; gi >= 0; gi-- {
			list := groups[gi].Get("hooks").Array()
			left := len(list)
			for hi := len(list) - 1; hi >= 0; hi-- {
				cmd := list[hi].Get("command").String()
				if !drop(cmd) {
					continue
				}
				if IsNode(cmd) {
					migrated++
				} else {
					removed++
				}
				left--
				if js, err = sjson.DeleteBytes(js, fmt.Sprintf("hooks.%s.%d.hooks.%d", escape(ev), gi, hi)); err != nil {
					return nil, 0, 0, err
				}
			}
			if left == 0 && len(list) > 0 {
				emptied++
				if js, err = sjson.DeleteBytes(js, fmt.Sprintf("hooks.%s.%d", escape(ev), gi)); err != nil {
					return nil, 0, 0, err
				}
			}
		}
		if emptied > 0 && emptied == len(groups) {
			if js, err = sjson.DeleteBytes(js, "hooks."+escape(ev)); err != nil {
				return nil, 0, 0, err
			}
		}
	}
	if removed+migrated > 0 && len(gjson.GetBytes(js, "hooks").Map()) == 0 {
		js, err = sjson.DeleteBytes(js, "hooks")
	}
	return js, removed, migrated, err
}

// escape makes an event name safe as one gjson/sjson path component.
func escape(s string) string {
	r := strings.NewReplacer(".", `\.`, "*", `\*`, "?", `\?`, "|", `\|`, "#", `\#`, "@", `\@`)
	return r.Replace(s)
}

// Hook is one wired hook command, as found in a settings file.
type Hook struct {
	Event, Matcher, Command string
	Timeout                 int  // 0 when absent
	HasTimeout              bool // a timeout is set
}

// Wired lists every hook command of a settings file, in file order.
func Wired(js []byte) []Hook {
	var out []Hook
	gjson.GetBytes(js, "hooks").ForEach(func(ev, groups gjson.Result) bool {
		groups.ForEach(func(_, g gjson.Result) bool {
			g.Get("hooks").ForEach(func(_, h gjson.Result) bool {
				t := h.Get("timeout")
				out = append(out, Hook{Event: ev.String(), Matcher: g.Get("matcher").String(),
					Command: h.Get("command").String(), Timeout: int(t.Int()), HasTimeout: t.Exists()})
				return true
			})
			return true
		})
		return true
	})
	return out
}
