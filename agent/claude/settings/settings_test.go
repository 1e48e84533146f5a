package settings

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
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
	return string(Pretty(js))
}

func TestInstallKeepsEverythingElseInOrder(t *testing.T) {
	res, err := Install([]byte(other), Desired(bin, false), "")
	if err != nil || !res.Changed {
		t.Fatal(err)
	}
	js := res.JSON
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
		if IsOurs(w.Command, "") && !w.HasTimeout {
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
			if err != nil || out.Removed != 6 {
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
	for _, w := range Wired(res.JSON) {
		if IsNode(w.Command) {
			t.Errorf("left %s", w.Command)
		}
	}
	if gjson.GetBytes(res.JSON, "hooks.SessionStart.0.hooks.0.command").String() != "other.sh" {
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
		if q != quoted || Program(q+" init") != path || !IsOurs(q+" init", "") {
			t.Errorf("%q: quoted %q, program %q", path, q, Program(q+" init"))
		}
	}
	if IsOurs("node session-hooks.mjs init", "") || !IsOurs("hooks-wrapper end", "hooks-wrapper") {
		t.Error("recognition")
	}
}

func FuzzInstall(f *testing.F) {
	f.Add([]byte(other), true)
	f.Add([]byte(`{"hooks":{"Stop":[{"hooks":[{"command":"session-hooks stop"}]},{}],"a.b":[]}}`), false)
	f.Add([]byte(""), true)
	f.Fuzz(func(t *testing.T, doc []byte, longRunning bool) {
		res, err := Install(doc, Desired(bin, longRunning), "")
		if err != nil {
			return
		}
		if !gjson.ValidBytes(res.JSON) {
			t.Fatalf("invalid JSON written:\n%s", res.JSON)
		}
		again, err := Install(res.JSON, Desired(bin, longRunning), "")
		if err != nil || again.Changed {
			t.Fatalf("not idempotent (%v):\n%s", err, res.JSON)
		}
		out, err := Uninstall(res.JSON, "")
		if err != nil || !gjson.ValidBytes(out.JSON) {
			t.Fatalf("uninstall: %v", err)
		}
		for _, w := range Wired(out.JSON) {
			if IsOurs(w.Command, "") {
				t.Fatalf("uninstall left %s", w.Command)
			}
		}
	})
}
