// Package hookfile is a settings file's hooks in Claude Code's nesting
// (hooks → event → matcher groups → commands), which Codex CLI's hooks.json
// and Gemini CLI's settings.json share: session-hooks' entries are wired in
// without disturbing anything else (every other key, hook and matcher group
// stays as it was, in order, edited through jsonedit in place), recognised
// by their command, and entries of the Node script it replaced are
// migrated. It works on bytes; each agent's install reads and writes the
// files.
package hookfile

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/install/jsonedit"
	"github.com/session-hooks/session-hooks/internal/jsondepth"

	"github.com/tidwall/gjson"
)

// Entry is one hook command in one matcher group of one event. Command is
// what /bin/sh would run; with Exec it is written in the exec form
// ("command" the program, "args" the rest, no shell), which Claude Code
// 2.1.330 runs and Windows without Git Bash needs.
type Entry struct {
	Event, Matcher, Command string
	Timeout                 int // seconds
	Exec                    bool
}

// AgentEntries are another agent's entries in this nesting (Codex CLI's,
// Gemini CLI's), from the event table by the agent's names for its rows:
// each runs program with --agent agent and the row's arguments; the
// long-running rows only with longRunning; with matchers the table's
// matchers; timeout gives an entry's timeout from its row's seconds (the
// agent's unit, or its cap).
func AgentEntries(agent, program string, events map[string]string, longRunning, matchers bool, timeout func(event string, seconds int) int) []Entry {
	var out []Entry
	for _, e := range eventtable.Table {
		args := strings.Join(e.Args(), " ")
		event, ok := events[args]
		if !ok || !e.Installed(longRunning, func(string) bool { return false }) {
			continue
		}
		entry := Entry{Event: event, Command: program + " --agent " + agent + " " + args, Timeout: timeout(event, e.Timeout)}
		if matchers {
			entry.Matcher = e.Matcher
		}
		out = append(out, entry)
	}
	return out
}

// ExecForm writes the entries in the exec form, when their command is a
// program and its arguments with nothing only a shell understands
// (variables, pipes, redirections, globs); else it leaves them as they are.
func ExecForm(entries []Entry) []Entry {
	out := slices.Clone(entries)
	for i, e := range out {
		if !strings.ContainsAny(e.Command, "$`|&;<>()*?[]{}~#!\n") {
			out[i].Exec = true
		}
	}
	return out
}

// Desired returns the entries to install for the command cmd (already
// quoted for /bin/sh): every row of the event table that install adds by
// default, the long-running checks with longRunning, and the rows whose
// install flag is among flags. Every entry has a timeout: without one,
// Claude Code cancels SessionEnd after about 1.5 s.
func Desired(cmd string, longRunning bool, flags ...string) []Entry {
	var out []Entry
	for _, e := range eventtable.Table {
		if e.Installed(longRunning, func(f string) bool { return slices.Contains(flags, f) }) {
			out = append(out, Entry{Event: e.Event, Matcher: e.Matcher, Command: cmd + " " + strings.Join(e.Args(), " "), Timeout: e.Timeout})
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

// IsOurs recognises a hook of ours by what it is: a session-hooks binary
// (or the program of the --command given) whose next word, after an
// optional --agent, is the subcommand the event table wires to event,
// whatever path or wrapper runs it (env, npx, "$CLAUDE_PROJECT_DIR"/bin/…).
// Only the first session-hooks word counts: "session-hooks install …
// session-hooks init" is a person command, not a hook. A session-hooks
// command the user wired themselves elsewhere (summary on Stop, say) is
// theirs. With event "", any of our hook subcommands counts.
func IsOurs(event, cmd, custom string) bool {
	agent, rest, ok := afterOurProgram(cmd, custom)
	if !ok || len(rest) == 0 {
		return false
	}
	// session-hooks --agent gemini init: another client's events
	// (BeforeAgent, PreCompress) are not the table's.
	otherAgent := agent != "" && agent != clients.dflt
	for _, e := range eventtable.Table {
		if rest[0] == e.Command && (event == "" || otherAgent || event == e.Event) {
			return true
		}
	}
	return false
}

// looksInstalled recognises an entry install wrote with another --command:
// alone in its group, with a timeout, under the matcher of a row of the
// event table and ending with that row's arguments. It is how a change
// of --command replaces the old entries instead of wiring every event
// twice.
func looksInstalled(w Hook) bool {
	e, ok := RowFor(w.Event, w.Command)
	return ok && w.GroupSize == 1 && w.HasTimeout && w.Matcher == e.Matcher
}

// RowFor is the event table's row for event whose arguments end the
// command, after a program: "… session-hooks init --compact-recovery" on
// SessionStart is the recovery row, whatever runs it.
func RowFor(event, cmd string) (eventtable.Event, bool) {
	words := shellWords(cmd)
	for _, e := range eventtable.Table {
		args := e.Args()
		if event == e.Event && len(words) > len(args) && slices.Equal(words[len(words)-len(args):], args) {
			return e, true
		}
	}
	return eventtable.Event{}, false
}

func isOurProgram(word, custom string) bool {
	base := strings.TrimSuffix(word[strings.LastIndexAny(word, `/\`)+1:], ".exe")
	// session-hooks-bridge is what the plugin's hooks run: it runs this
	// program from PATH.
	return base == "session-hooks" || base == "session-hooks-bridge" || custom != "" && word == Program(custom)
}

// shellWords splits a command as /bin/sh would into words, for
// recognising one: quotes removed, variables left as written.
func shellWords(cmd string) []string {
	var words []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote == '"' && c == '\\' && i+1 < len(cmd) && strings.IndexByte("$`\"\\\n", cmd[i+1]) >= 0:
			i++
			cur.WriteByte(cmd[i])
		case quote != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '\\' && i+1 < len(cmd):
			i++
			cur.WriteByte(cmd[i])
			in = true
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
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
	Changes  []string // "+ " or "- " and the entry, for people
	Added    int      // our entries added
	Removed  int      // our entries taken out
	Migrated int      // Node script entries replaced
}

// Install makes the settings hold exactly the wanted entries of ours, each
// in its own matcher group at the end of its event: entries of ours that
// are wanted stay where they are, the others and the Node script's are
// taken out, the missing ones added. The bytes outside those entries are
// kept as written; settings that already hold exactly the wanted entries
// are returned unchanged.
func Install(doc []byte, want []Entry, custom string) (Result, error) {
	js, d, err := load(doc)
	if err != nil {
		return Result{}, err
	}
	if has(js, want, custom) {
		return Result{JSON: doc}, nil
	}
	res := Result{Changed: true}
	kept := make([]bool, len(want))
	wired := Wired(js)
	if err := refuseCompound(wired, custom); err != nil {
		return Result{}, err
	}
	for i := len(wired) - 1; i >= 0; i-- { // last first: the indices before stay right
		w := wired[i]
		if !IsOurs(w.Event, w.Command, custom) && !IsNode(w.Command) && !looksInstalled(w) {
			continue
		}
		if k := wanted(w, want, kept); k >= 0 {
			kept[k] = true
			continue
		}
		if err := removeHook(d, w); err != nil {
			return Result{}, err
		}
		if IsNode(w.Command) {
			res.Migrated++
		} else {
			res.Removed++
		}
		res.Changes = append(res.Changes, "- "+describe(w.Event, w.Matcher, w.Command))
	}
	for k, e := range want {
		if !kept[k] {
			if err := AddEntry(d, e); err != nil {
				return Result{}, err
			}
			res.Added++
			res.Changes = append(res.Changes, "+ "+describe(e.Event, e.Matcher, e.Command))
		}
	}
	res.JSON = d.Bytes()
	return res, nil
}

func describe(event, matcher, cmd string) string {
	if matcher != "" {
		event += " (" + matcher + ")"
	}
	return event + ": " + cmd
}

// Compound says whether a command runs more than one program through
// the shell: a list (;), a pipe, && or ||, a redirection, a substitution.
func Compound(cmd string) bool {
	return strings.ContainsAny(cmd, ";&|<>`\n") || strings.Contains(cmd, "$(")
}

// refuseCompound fails an edit that would replace or remove an entry of
// ours that also runs something else: "session-hooks init; other" would
// lose the user's "other". Such an entry is theirs to split.
func refuseCompound(wired []Hook, custom string) error {
	for _, w := range wired {
		if IsOurs(w.Event, w.Command, custom) && Compound(w.Command) {
			return fmt.Errorf("the %s entry %q runs session-hooks together with other commands; "+
				"it is left as it is: split it into one entry per command (or remove it), then run this again", w.Event, w.Command)
		}
	}
	return nil
}

// Keep is what is wired of ours already, so that a plain install keeps
// it: whether the long-running checks are, and which install flags' rows.
func Keep(doc []byte, custom string) (longRunning bool, flags []string) {
	js, err := Parse(doc)
	if err != nil {
		return false, nil
	}
	for _, w := range Wired(js) {
		e, ok := RowFor(w.Event, w.Command)
		if !ok || !IsOurs(w.Event, w.Command, custom) && !looksInstalled(w) {
			continue
		}
		longRunning = longRunning || e.LongRunning
		if e.InstallFlag != "" && !slices.Contains(flags, e.InstallFlag) {
			flags = append(flags, e.InstallFlag)
		}
	}
	return longRunning, flags
}

// wanted is the index of the wanted entry w already is (alone in its
// matcher group, as install writes it), not yet claimed, or -1.
func wanted(w Hook, want []Entry, kept []bool) int {
	for k, e := range want {
		if !kept[k] && w.GroupSize == 1 && e == w.entry() && w.HasTimeout {
			return k
		}
	}
	return -1
}

// Uninstall removes our entries, and the groups, event lists and hooks
// object our removal left empty; every other byte stays.
func Uninstall(doc []byte, custom string) (Result, error) {
	js, d, err := load(doc)
	if err != nil {
		return Result{}, err
	}
	res := Result{JSON: doc}
	wired := Wired(js)
	if err := refuseCompound(wired, custom); err != nil {
		return Result{}, err
	}
	for i := len(wired) - 1; i >= 0; i-- {
		if !IsOurs(wired[i].Event, wired[i].Command, custom) {
			continue
		}
		if err := removeHook(d, wired[i]); err != nil {
			return Result{}, err
		}
		res.Removed++
	}
	if res.Removed > 0 {
		res.JSON, res.Changed = d.Bytes(), true
	}
	return res, nil
}

// load parses settings for an edit: as plain JSON to read them, and as
// written to splice them. Both refuse what an edit would have to guess.
func load(doc []byte) ([]byte, *jsonedit.Doc, error) {
	js, err := Parse(doc)
	if err != nil {
		return nil, nil, err
	}
	if err := checkShape(js); err != nil {
		return nil, nil, err
	}
	d, err := jsonedit.Parse(doc)
	if err != nil {
		return nil, nil, fmt.Errorf("the settings are not valid JSON: %v", err)
	}
	if err := d.Duplicates(d.Root(), "the key", ""); err != nil {
		return nil, nil, err
	}
	if h := jsonedit.Member(d.Root(), "hooks"); h != nil {
		if err := d.Duplicates(h, "the hook event", ""); err != nil {
			return nil, nil, err
		}
	}
	return js, d, nil
}

// removeHook takes one hook command out, with its matcher group, event
// list and hooks object when it was the last thing in them.
func removeHook(d *jsonedit.Doc, w Hook) error {
	hooks := jsonedit.Member(d.Root(), "hooks")
	event := jsonedit.Member(hooks, w.Event)
	group := jsonedit.Element(event, w.Group)
	list := jsonedit.Member(group, "hooks")
	if list == nil {
		return fmt.Errorf("cannot find the %s hook %q to remove", w.Event, w.Command)
	}
	// An event list or hooks object left empty goes too when add made it
	// (as it lays them out); one the user wrote stays, empty, as it was.
	switch {
	case jsonedit.Count(list) > 1:
		return d.Remove(list, w.Index)
	case jsonedit.Count(event) > 1 || !d.MadeByAdd(hooks, w.Event):
		return d.Remove(event, w.Group)
	case jsonedit.Count(hooks) > 1 || !d.MadeByAdd(d.Root(), "hooks"):
		return d.Remove(hooks, jsonedit.MemberIndex(hooks, w.Event))
	default:
		return d.Remove(d.Root(), jsonedit.MemberIndex(d.Root(), "hooks"))
	}
}

// addGroup appends a matcher group holding e to its event, adding the
// event list and the hooks object when missing.
// AddEntry adds e to d in its own matcher group, laid out as install
// lays out a new entry.
func AddEntry(d *jsonedit.Doc, e Entry) error {
	group := Group(e.Matcher, e.Command, e.Timeout)
	if words := shellWords(e.Command); e.Exec && len(words) > 0 {
		group.Hooks[0].Command, group.Hooks[0].Args = words[0], words[1:]
	}
	hooks := jsonedit.Member(d.Root(), "hooks")
	if hooks == nil {
		return d.Add(d.Root(), "hooks", map[string][]MatcherGroup{e.Event: {group}})
	}
	if event := jsonedit.Member(hooks, e.Event); event != nil {
		return d.Add(event, "", group)
	}
	return d.Add(hooks, e.Event, []MatcherGroup{group})
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

// has reports whether the settings hold exactly the wanted entries of ours
// and nothing else of ours or the Node script's.
func has(js []byte, want []Entry, custom string) bool {
	found := 0
	for _, w := range Wired(js) {
		if !IsOurs(w.Event, w.Command, custom) && !IsNode(w.Command) {
			continue
		}
		match := false
		for _, e := range want {
			if e == w.entry() {
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

// Hook is one wired hook command, as found in a settings file.
type Hook struct {
	Event, Matcher, Command string
	Timeout                 int  // 0 when absent
	HasTimeout              bool // a timeout is set
	// Group is the matcher group's place in the event's list, Index the
	// command's in the group, GroupSize the group's number of commands.
	Group, Index, GroupSize int
	// Exec: written in the exec form; Command joins "command" and "args"
	// as /bin/sh would read them.
	Exec bool
}

func (h Hook) entry() Entry {
	return Entry{Event: h.Event, Matcher: h.Matcher, Command: h.Command, Timeout: h.Timeout, Exec: h.Exec}
}

// Wired lists every hook command of a settings file, in file order.
func Wired(js []byte) []Hook {
	var out []Hook
	gjson.GetBytes(js, "hooks").ForEach(func(ev, groups gjson.Result) bool {
		for gi, g := range groups.Array() {
			list := g.Get("hooks").Array()
			for hi, h := range list {
				t := h.Get("timeout")
				cmd, args := h.Get("command").String(), h.Get("args")
				if args.IsArray() {
					words := []string{ShellQuote(cmd)}
					for _, a := range args.Array() {
						words = append(words, ShellQuote(a.String()))
					}
					cmd = strings.Join(words, " ")
				}
				out = append(out, Hook{Event: ev.String(), Matcher: g.Get("matcher").String(),
					Command: cmd, Timeout: int(t.Int()), HasTimeout: t.Exists(),
					Group: gi, Index: hi, GroupSize: len(list), Exec: args.IsArray()})
			}
		}
		return true
	})
	return out
}

// Group is one matcher group of a settings.json hook event, holding one
// command, as Claude Code reads it.
func Group(matcher, command string, timeout int) MatcherGroup {
	return MatcherGroup{Matcher: matcher, Hooks: []HookCommand{{Type: "command", Command: command, Timeout: timeout}}}
}

// MatcherGroup is one entry of an event's list, its keys in the order
// Claude Code's documentation writes them.
type MatcherGroup struct {
	Matcher string        `json:"matcher"`
	Hooks   []HookCommand `json:"hooks"`
}

// HookCommand is one command of a matcher group.
type HookCommand struct {
	Type    string   `json:"type"`
	Command string   `json:"command"`
	Args    []string `json:"args,omitempty"` // the exec form: Command is the program, run without a shell
	Timeout int      `json:"timeout,omitempty"`
}

// ReadBy names the client that reads the settings in an error that says
// what it does with them (a key written twice); other errors pass as they
// are.
func ReadBy(err error, client string) error {
	var dup *jsonedit.DuplicateKeyError
	if errors.As(err, &dup) && dup.Client == "" {
		dup.Client = client
	}
	return err
}
