package hookfile

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/tidwall/pretty"
)

const bin = "/usr/local/bin/session-hooks"

// other is a settings file of a user with other tools' hooks and keys.
const other = `{
  // my settings
  "model": "opus",
  "permissions": {"allow": ["Bash(ls:*)"],},
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]}],
    "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi", "timeout": 5}]}],
  },
  "env": {"A": "b"}
}`

func canonical(t *testing.T, b []byte) string {
	t.Helper()
	js, err := Parse(b)
	if err != nil {
		t.Fatalf("%v:\n%s", err, b)
	}
	return string(pretty.PrettyOptions(js, &pretty.Options{Indent: "  ", SortKeys: false, Width: 120}))
}

func TestInstallKeepsEverythingElseInOrder(t *testing.T) {
	res, err := Install([]byte(other), Desired(bin, false), "")
	if err != nil || !res.Changed {
		t.Fatal(err)
	}
	js := []byte(canonical(t, res.JSON))
	if got := gjson.GetBytes(js, "@keys").String(); got != `["model","permissions","hooks","env"]` {
		t.Errorf("keys %s", got)
	}
	if gjson.GetBytes(js, "hooks.PreToolUse.0.hooks.0.command").String() != "guard.sh" ||
		gjson.GetBytes(js, "hooks.SessionStart.0.hooks.0.command").String() != "echo hi" {
		t.Errorf("other hooks disturbed:\n%s", js)
	}
	wired := Wired(js)
	want := []string{"SessionStart startup echo hi", "SessionStart startup|resume|clear|fork " + bin + " init",
		"SessionStart compact " + bin + " init --compact-recovery", "PreCompact  " + bin + " pre-compact", "SessionEnd  " + bin + " end"}
	var got []string
	for _, w := range wired {
		if w.Event != "PreToolUse" {
			got = append(got, w.Event+" "+w.Matcher+" "+w.Command)
		}
		if IsOurs(w.Event, w.Command, "") && !w.HasTimeout {
			t.Errorf("%s has no timeout", w.Command)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("wired:\n%s", strings.Join(got, "\n"))
	}
}

func TestInstallTwiceChangesNothing(t *testing.T) {
	first, _ := Install([]byte(other), Desired(bin, true), "")
	second, err := Install(first.JSON, Desired(bin, true), "")
	if err != nil || second.Changed || canonical(t, second.JSON) != canonical(t, first.JSON) {
		t.Errorf("second install changed the settings (%v)", err)
	}
}

func TestInstallThenUninstallGivesBackTheSettings(t *testing.T) {
	for name, doc := range map[string]string{"other tools": other, "empty": "", "no hooks": `{"model":"x"}`,
		"our event beside others": `{"hooks":{"SessionEnd":[{"hooks":[{"type":"command","command":"save.sh"}]}]}}`} {
		t.Run(name, func(t *testing.T) {
			in, _ := Install([]byte(doc), Desired(bin, true), "")
			out, err := Uninstall(in.JSON, "")
			if err != nil || out.Removed != len(Desired(bin, true)) {
				t.Fatalf("removed %d, %v", out.Removed, err)
			}
			if canonical(t, out.JSON) != canonical(t, []byte(doc)) {
				t.Errorf("round trip changed the settings:\n%s\nwant:\n%s", canonical(t, out.JSON), canonical(t, []byte(doc)))
			}
			again, _ := Uninstall(out.JSON, "")
			if again.Changed {
				t.Error("a second uninstall changed something")
			}
		})
	}
}

func TestInstallMigratesTheNodeScript(t *testing.T) {
	node := `{"hooks":{"SessionStart":[{"matcher":"startup|resume","hooks":[{"type":"command","command":"node .claude/hooks/session-hooks.mjs init"}]},
	{"matcher":"compact","hooks":[{"type":"command","command":"node .claude/hooks/session-hooks.mjs init --compact-recovery"},{"type":"command","command":"other.sh"}]}],
	"SessionEnd":[{"hooks":[{"type":"command","command":"node .claude/hooks/session-hooks.mjs end"}]}]}}`
	res, err := Install([]byte(node), Desired(bin, false), "")
	if err != nil || res.Migrated != 3 {
		t.Fatalf("migrated %d, %v", res.Migrated, err)
	}
	js := []byte(canonical(t, res.JSON))
	for _, w := range Wired(js) {
		if IsNode(w.Command) {
			t.Errorf("left %s", w.Command)
		}
	}
	if gjson.GetBytes(js, "hooks.SessionStart.0.hooks.0.command").String() != "other.sh" {
		t.Errorf("a group with another tool's hook was dropped:\n%s", res.JSON)
	}
}

func TestInstallReplacesAnOutdatedInstall(t *testing.T) {
	old, _ := Install(nil, Desired("/old/path/session-hooks", false), "")
	res, err := Install(old.JSON, Desired(bin, false), "")
	if err != nil || !res.Changed || res.Removed != 4 || strings.Contains(string(res.JSON), "/old/path") {
		t.Errorf("removed %d, %v:\n%s", res.Removed, err, res.JSON)
	}
}

func TestParseRefusesWhatItCannotRead(t *testing.T) {
	for _, doc := range []string{`{"hooks":`, `[1]`, `/* unterminated`, `{"a": 1} trailing`} {
		if _, err := Install([]byte(doc), Desired(bin, false), ""); err == nil {
			t.Errorf("accepted %q", doc)
		}
	}
	js, err := Parse([]byte("{\"url\": \"http://x//y\", /* c */ \"a\": [1,2,],}\n// end"))
	if err != nil || string(js) != `{"url": "http://x//y",  "a": [1,2]}`+"\n" {
		t.Errorf("got %q, %v", js, err)
	}
}

func TestShellQuoteAndProgram(t *testing.T) {
	for path, quoted := range map[string]string{"/usr/bin/session-hooks": "/usr/bin/session-hooks",
		"/home/a b/session-hooks": "'/home/a b/session-hooks'", "/it's/session-hooks": `'/it'\''s/session-hooks'`} {
		q := ShellQuote(path)
		if q != quoted || Program(q+" init") != path || !IsOurs("SessionStart", q+" init", "") {
			t.Errorf("%q: quoted %q, program %q", path, q, Program(q+" init"))
		}
	}
	if IsOurs("SessionStart", "node session-hooks.mjs init", "") || !IsOurs("SessionEnd", "hooks-wrapper end", "hooks-wrapper") {
		t.Error("recognition")
	}
}

// A path of letters, digits and /._-+,:@%= is written as it is; any
// other character (the ones just outside those ranges included) makes
// it quoted.
func TestShellQuoteQuotesExactlyWhatTheShellWouldRead(t *testing.T) {
	for _, plain := range []string{"azAZ09", "/a.b_c-d+e,f:g@h%i=j", "a", "z", "A", "Z", "0", "9"} {
		if got := ShellQuote(plain); got != plain {
			t.Errorf("ShellQuote(%q) = %q, want it as it is", plain, got)
		}
	}
	for _, s := range []string{"`", "{", "@[", `a\b`, ";", "$", "~", "*", "!", "é", ""} {
		if got := ShellQuote(s); got != "'"+s+"'" {
			t.Errorf("ShellQuote(%q) = %q, want it quoted", s, got)
		}
	}
}

func FuzzInstall(f *testing.F) {
	f.Add([]byte(other), true)
	f.Add([]byte(`{"hooks":{"Stop":[{"hooks":[{"command":"session-hooks stop"}]},{}],"a.b":[]}}`), false)
	f.Add([]byte(""), true)
	// The Node script's sole entry in a list with a trailing comma: its
	// removal once left "[,]".
	f.Add([]byte(`{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "node .claude/hooks/session-hooks.mjs end"}]},],},}`), false)
	f.Fuzz(func(t *testing.T, doc []byte, longRunning bool) {
		res, err := Install(doc, Desired(bin, longRunning), "")
		if err != nil {
			return
		}
		if _, err := Parse(res.JSON); err != nil {
			t.Fatalf("install wrote what it cannot read back (%v):\n%s", err, res.JSON)
		}
		again, err := Install(res.JSON, Desired(bin, longRunning), "")
		if err != nil || again.Changed {
			t.Fatalf("not idempotent (%v):\n%s", err, res.JSON)
		}
		out, err := Uninstall(res.JSON, "")
		if err != nil {
			t.Fatalf("uninstall: %v", err)
		}
		plain, err := Parse(out.JSON)
		if err != nil {
			t.Fatalf("uninstall wrote what it cannot read back (%v):\n%s", err, out.JSON)
		}
		if !bytes.Equal(out.JSON, doc) && len(bytes.TrimSpace(doc)) > 0 && !bytes.Contains(doc, []byte("session-hooks")) {
			t.Fatalf("install then uninstall changed the bytes:\n%q\nwant:\n%q", out.JSON, doc)
		}
		for _, w := range Wired(plain) {
			if IsOurs(w.Event, w.Command, "") {
				t.Fatalf("uninstall left %s", w.Command)
			}
		}
	})
}

// Golden files: each settings file in testdata/golden is installed into
// (the result compared with its .installed file, byte for byte) and
// uninstalled from, which must give back the original bytes exactly.
// UPDATE_GOLDEN=1 rewrites the .installed files.
func TestInstallThenUninstallGivesBackTheSameBytes(t *testing.T) {
	inputs, _ := filepath.Glob("testdata/golden/*.json")
	if len(inputs) == 0 {
		t.Fatal("no golden inputs")
	}
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			orig, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Install(orig, Desired(bin, true, "post-compact"), "")
			if err != nil || !res.Changed {
				t.Fatalf("install: %v", err)
			}
			golden := strings.TrimSuffix(in, ".json") + ".installed"
			if os.Getenv("UPDATE_GOLDEN") != "" {
				os.WriteFile(golden, res.JSON, 0o644)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(res.JSON, want) {
				t.Errorf("installed settings differ from %s:\n%s", golden, res.JSON)
			}
			if _, err := Parse(res.JSON); err != nil {
				t.Errorf("installed settings do not parse: %v", err)
			}
			again, err := Install(res.JSON, Desired(bin, true, "post-compact"), "")
			if err != nil || again.Changed || !bytes.Equal(again.JSON, res.JSON) {
				t.Errorf("a second install changed the bytes (%v)", err)
			}
			out, err := Uninstall(res.JSON, "")
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.JSON, orig) {
				t.Errorf("uninstall did not give back the original bytes:\n%q\nwant:\n%q", out.JSON, orig)
			}
		})
	}
}

func TestInstallRefusesDuplicateKeys(t *testing.T) {
	for doc, want := range map[string]string{
		"{\n\"hooks\": {},\n\"model\": \"x\",\n\"hooks\": {}\n}": `the key "hooks" appears twice (lines 2 and 4)`,
		"{\"hooks\": {\n\"Stop\": [],\n\"Stop\": []\n}}":         `the hook event "Stop" appears twice (lines 2 and 3)`,
	} {
		_, err := Install([]byte(doc), Desired(bin, false), "")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", doc, err, want)
		}
	}
}

func TestOurEntriesAreRecognisedByProgramAndSubcommand(t *testing.T) {
	tests := []struct {
		event, cmd string
		ours       bool
	}{
		{"SessionStart", "/usr/local/bin/session-hooks init", true},
		{"SessionStart", `"$CLAUDE_PROJECT_DIR"/bin/session-hooks init --compact-recovery`, true},
		{"SessionEnd", "env SESSION_HOOKS_TIMEOUT=2s session-hooks end", true},
		{"PreCompact", "npx session-hooks pre-compact", true},
		{"SessionEnd", `"C:\tools\session-hooks.exe" end`, true},
		{"Stop", "session-hooks summary --last >> stop.log", false}, // the user's own use of it
		{"UserPromptSubmit", "session-hooks init", false},           // not an event we wire init to
		{"SessionStart", "node .claude/hooks/session-hooks.mjs init", false},
	}
	for _, tt := range tests {
		if got := IsOurs(tt.event, tt.cmd, ""); got != tt.ours {
			t.Errorf("IsOurs(%s, %q) = %v", tt.event, tt.cmd, got)
		}
	}
}

func TestInstallLeavesTheUsersOwnSessionHooksCommands(t *testing.T) {
	doc := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"session-hooks summary --last"}]}]}}`
	in, err := Install([]byte(doc), Desired(bin, false), "")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := Uninstall(in.JSON, "")
	if string(out.JSON) != doc {
		t.Errorf("the user's own command did not survive:\n%s", out.JSON)
	}
}

func TestAnEntryCountsAsInstalledOnlyInTheShapeInstallWritesIt(t *testing.T) {
	old := func(group, timeout, matcher string) string {
		return `{"hooks":{"SessionStart":[{"matcher":"` + matcher + `","hooks":[` + group +
			`{"type":"command","command":"/opt/old/hooks-runner init"` + timeout + `}]}]}}`
	}
	tests := []struct {
		name, doc string
		replaced  bool
	}{
		{"alone, with a timeout, under our matcher: another --command's install", old("", `,"timeout":30`, "startup|resume|clear|fork"), true},
		{"beside another hook in its group: the user's", old(`{"type":"command","command":"other.sh"},`, `,"timeout":30`, "startup|resume|clear|fork"), false},
		{"without a timeout: the user's", old("", "", "startup|resume|clear|fork"), false},
		{"under another matcher: the user's", old("", `,"timeout":30`, "startup"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Install([]byte(tt.doc), Desired(bin, false), "")
			if err != nil {
				t.Fatal(err)
			}
			if kept := strings.Contains(string(res.JSON), "/opt/old/hooks-runner init"); kept == tt.replaced {
				t.Errorf("replaced %v, want %v:\n%s", !kept, tt.replaced, res.JSON)
			}
		})
	}
}

func TestUninstallLeavesOurSubcommandWiredToAnEventWeDoNotUse(t *testing.T) {
	doc := `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"session-hooks init","timeout":30}]}]}}`
	out, err := Uninstall([]byte(doc), "")
	if err != nil || out.Changed || string(out.JSON) != doc {
		t.Errorf("uninstall changed the user's own wiring (%v):\n%s", err, out.JSON)
	}
}

func TestWhatIsWiredIsKeptWhateverTheEntriesOrder(t *testing.T) {
	stop := `{"matcher":"","hooks":[{"type":"command","command":"session-hooks stop","timeout":30}]}`
	post := `{"matcher":"","hooks":[{"type":"command","command":"session-hooks post-compact","timeout":30}]}`
	for _, doc := range []string{
		`{"hooks":{"Stop":[` + stop + `],"PostCompact":[` + post + `]}}`,
		`{"hooks":{"PostCompact":[` + post + `],"Stop":[` + stop + `]}}`,
	} {
		longRunning, flags := Keep([]byte(doc), "")
		if !longRunning || len(flags) != 1 || flags[0] != "post-compact" {
			t.Errorf("Keep(%s) = %v %q", doc, longRunning, flags)
		}
	}
}

func TestInstallAddsWhatIsMissingEvenWhenSomeIsWired(t *testing.T) {
	want := Desired(bin, false)
	one, err := Install(nil, want[:1], "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Install(one.JSON, want, "")
	if err != nil || !res.Changed || res.Added != len(want)-1 {
		t.Errorf("added %d of the %d missing (%v)", res.Added, len(want)-1, err)
	}
}

func TestInstallGivesOurEntrySharingAGroupItsOwn(t *testing.T) {
	want := Desired(bin, false)
	doc := `{"hooks":{"` + want[0].Event + `":[{"matcher":"` + want[0].Matcher + `","hooks":[` +
		`{"type":"command","command":"other.sh"},` +
		`{"type":"command","command":"` + want[0].Command + `","timeout":` + strconv.Itoa(want[0].Timeout) + `}]}]}}`
	res, err := Install([]byte(doc), want, "")
	if err != nil || !res.Changed {
		t.Fatalf("changed %v (%v)", res.Changed, err)
	}
	for _, w := range Wired(mustParse(t, res.JSON)) {
		if w.Command == want[0].Command && w.GroupSize != 1 {
			t.Errorf("our entry still shares a group of %d:\n%s", w.GroupSize, res.JSON)
		}
	}
	if !strings.Contains(string(res.JSON), "other.sh") {
		t.Errorf("the user's hook in the group was lost:\n%s", res.JSON)
	}
}

func TestInstallRemovesASecondCopyOfOurEntry(t *testing.T) {
	want := Desired(bin, false)
	twice := append([]Entry{want[0]}, want...)
	res, err := Install([]byte(docOf(twice)), want, "")
	if err != nil || !res.Changed || res.Removed != 1 || res.Added != 0 {
		t.Fatalf("changed %v, removed %d, added %d (%v)", res.Changed, res.Removed, res.Added, err)
	}
	if canonical(t, res.JSON) != canonical(t, []byte(docOf(want))) {
		t.Errorf("got\n%s\nwant\n%s", res.JSON, docOf(want))
	}
}

// docOf is settings holding the entries, each in its own group, as
// install writes them.
func docOf(entries []Entry) string {
	var events []string
	groups := map[string][]string{}
	for _, e := range entries {
		if _, ok := groups[e.Event]; !ok {
			events = append(events, e.Event)
		}
		groups[e.Event] = append(groups[e.Event], `{"matcher":"`+e.Matcher+`","hooks":[{"type":"command","command":"`+
			e.Command+`","timeout":`+strconv.Itoa(e.Timeout)+`}]}`)
	}
	var parts []string
	for _, ev := range events {
		parts = append(parts, `"`+ev+`":[`+strings.Join(groups[ev], ",")+`]`)
	}
	return `{"hooks":{` + strings.Join(parts, ",") + `}}`
}

func TestKeepNamesEachFlagOnceAndOnlyOurs(t *testing.T) {
	post := `{"matcher":"","hooks":[{"type":"command","command":"session-hooks post-compact","timeout":30}]}`
	theirs := `{"matcher":"","hooks":[{"type":"command","command":"their-tool stop"}]}`
	tests := []struct {
		name        string
		doc         string
		longRunning bool
		flags       []string
	}{
		{"the same row wired twice", `{"hooks":{"PostCompact":[` + post + `,` + post + `]}}`, false, []string{"post-compact"}},
		{"another program ending with our row's arguments", `{"hooks":{"Stop":[` + theirs + `]}}`, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			longRunning, flags := Keep([]byte(tt.doc), "")
			if longRunning != tt.longRunning || !slices.Equal(flags, tt.flags) {
				t.Errorf("Keep = %v %q, want %v %q", longRunning, flags, tt.longRunning, tt.flags)
			}
		})
	}
}

func mustParse(t *testing.T, b []byte) []byte {
	t.Helper()
	js, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// A trailing comma after the entry uninstall removes goes with it: "[x,]"
// must not become "[,]", which no JSON reader takes.
func TestUninstallTakesTheTrailingCommaOfWhatItRemoves(t *testing.T) {
	for doc, want := range map[string]string{
		`{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "session-hooks end"}]} ,], "Stop": []}}`:  `{"hooks": {"SessionEnd": [], "Stop": []}}`,
		`{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "session-hooks end"} , ]}], "Stop": []}}`: `{"hooks": {"Stop": []}}`,
	} {
		res, err := Uninstall([]byte(doc), "")
		if err != nil || string(res.JSON) != want {
			t.Errorf("uninstall of %s:\n%s (%v), want\n%s", doc, res.JSON, err, want)
		}
	}
}

func TestProgramIsTheFirstWordAsTheShellReadsIt(t *testing.T) {
	for cmd, want := range map[string]string{
		`'/a b/session-hooks' init`:    "/a b/session-hooks",
		`'/it'\''s/session-hooks' end`: "/it's/session-hooks",
		`'unterminated`:                "unterminated",
		`"/a b/session-hooks" init`:    "/a b/session-hooks",
		`"" init`:                      "",
		`  session-hooks   init`:       "session-hooks",
		"   ":                          "",
		"":                             "",
	} {
		if got := Program(cmd); got != want {
			t.Errorf("Program(%q) = %q, want %q", cmd, got, want)
		}
	}
}

func TestOurProgramWithoutASubcommandOrASubcommandWithoutOurProgramIsNotOurs(t *testing.T) {
	for _, cmd := range []string{"session-hooks", "/usr/bin/session-hooks", "end", "init --compact-recovery"} {
		if IsOurs("", cmd, "") {
			t.Errorf("IsOurs(%q)", cmd)
		}
	}
	// A bare "end" alone in its group with a timeout is someone's own
	// script: install leaves it.
	doc := `{"hooks":{"SessionEnd":[{"matcher":"","hooks":[{"type":"command","command":"end","timeout":5}]}]}}`
	res, err := Install([]byte(doc), Desired(bin, false), "")
	if err != nil || res.Removed != 0 || !strings.Contains(string(res.JSON), `"command":"end"`) {
		t.Errorf("removed %d (%v):\n%s", res.Removed, err, res.JSON)
	}
}

func TestParseStripsCommentsAndTrailingCommasOutsideStrings(t *testing.T) {
	for in, want := range map[string]string{
		`{"a": "x\"//y", "b": 1}`:     `{"a": "x\"//y", "b": 1}`,    // an escaped quote does not end the string
		`{"a": "x\\", "b": 1} // c`:   `{"a": "x\\", "b": 1} `,      // an escaped backslash does
		`{"a": [1,` + "\r\n\t" + `]}`: `{"a": [1` + "\r\n\t" + `]}`, // any white space before the bracket
		`{"a": 1}//`:                  `{"a": 1}`,                   // a comment at the very end
		`{/**/"a": 1}`:                `{"a": 1}`,                   // an empty block comment
		`{"a": /* x */ 2}`:            `{"a":  2}`,                  // one between tokens
		"{\"a\": 1 // c\n}":           "{\"a\": 1 \n}",              // a line comment keeps its newline
	} {
		got, err := Parse([]byte(in))
		if err != nil || string(got) != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{`{"a": 1 /* open`, `{"a": "x\`, `,}`} {
		if got, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q) = %q, want an error", bad, got)
		}
	}
}

// The changes install lists for a person name the matcher only where
// there is one.
func TestInstallListsItsChangesWithTheirMatchers(t *testing.T) {
	res, err := Install(nil, Desired(bin, false), "")
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(res.Changes, "\n")
	for _, want := range []string{"+ SessionStart (startup|resume|clear|fork): " + bin + " init", "+ SessionEnd: " + bin + " end"} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in:\n%s", want, all)
		}
	}
}

// Another agent's entries come from the event table: only the rows it has
// an event for, the long-running ones when asked, the table's matchers
// when its file takes them, each timeout in its unit.
func TestAgentEntriesComeFromTheEventTable(t *testing.T) {
	events := map[string]string{"init": "Start", "end": "End", "stop": "Halt"}
	double := func(event string, s int) int { return s*2 + len(event) }
	got := AgentEntries("x", "sh", events, false, true, double)
	want := []Entry{{Event: "Start", Matcher: "startup|resume|clear|fork", Command: "sh --agent x init", Timeout: 65},
		{Event: "End", Command: "sh --agent x end", Timeout: 13}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("AgentEntries = %+v, want %+v", got, want)
	}
	lr := AgentEntries("x", "sh", events, true, false, double)
	if len(lr) != 3 || lr[0].Matcher != "" || lr[2] != (Entry{Event: "Halt", Command: "sh --agent x stop", Timeout: 64}) {
		t.Errorf("with the long-running checks, without matchers: %+v", lr)
	}
}
