package install

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/install/hookfile"
)

func TestKeysAreCodexs(t *testing.T) {
	// As codex app-server 0.169.0 answered hooks/list.
	if got := Key("/h/hooks.json", "SessionStart", 0, 0); got != "/h/hooks.json:session_start:0:0" {
		t.Errorf("got %q", got)
	}
	if got := Key("/h/hooks.json", "PreCompact", 2, 1); got != "/h/hooks.json:pre_compact:2:1" {
		t.Errorf("got %q", got)
	}
}

func TestSetTrustAddsReplacesAndKeepsTheRest(t *testing.T) {
	config := "model = \"gpt-5\"\n\n[hooks.state.\"/h/hooks.json:session_end:0:0\"]\ntrusted_hash = \"sha256:old\"\nenabled = true\n\n[other]\nx = 1"
	got := string(SetTrust([]byte(config), map[string]string{
		"/h/hooks.json:session_end:0:0": "sha256:new", `/h "q"/hooks.json:pre_compact:0:0`: "sha256:b"},
		[]string{"/h/hooks.json:session_end:0:0", `/h "q"/hooks.json:pre_compact:0:0`}))
	want := "model = \"gpt-5\"\n\n[hooks.state.\"/h/hooks.json:session_end:0:0\"]\ntrusted_hash = \"sha256:new\"\nenabled = true\n\n[other]\nx = 1\n" +
		"\n[hooks.state.\"/h \\\"q\\\"/hooks.json:pre_compact:0:0\"]\ntrusted_hash = \"sha256:b\"\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	back := string(RemoveTrust([]byte(got), []string{`/h "q"/hooks.json:pre_compact:0:0`}))
	if want := strings.Replace(config, "sha256:old", "sha256:new", 1) + "\n"; back != want {
		t.Errorf("removed:\n%q\nwant\n%q", back, want)
	}
	if got := string(RemoveTrust([]byte(config), []string{"/h/hooks.json:session_end:0:0"})); got != "model = \"gpt-5\"\n\n[other]\nx = 1" {
		t.Errorf("removed:\n%q", got)
	}
}

func TestATableWithoutAHashGetsOne(t *testing.T) {
	config := "[hooks.state.\"k\"]\nenabled = true\n"
	if got := string(SetTrust([]byte(config), map[string]string{"k": "sha256:a"}, []string{"k"})); got != "[hooks.state.\"k\"]\ntrusted_hash = \"sha256:a\"\nenabled = true\n" {
		t.Errorf("got %q", got)
	}
}

func TestTOMLStringsEscapeWhatTOMLNeeds(t *testing.T) {
	if got := tomlString("a\\b\"c\x01"); got != `"a\\b\"c\u0001"` {
		t.Errorf("got %s", got)
	}
}

// A user's hook after ours moves up a group when ours go: its trust
// follows it, and Codex keeps running it.
func TestUninstallMovesTheTrustOfTheHooksAfterOurs(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, "hooks.json")
	res, err := hookfile.Install(nil, Entries("/bin/session-hooks", false), "")
	if err != nil {
		t.Fatal(err)
	}
	// Theirs: alone on Stop, and on SessionStart after ours (group 2).
	doc := strings.Replace(string(res.JSON), `"SessionStart": [`, `"Stop": [{"hooks": [{"type": "command", "command": "stop.sh"}]}], "SessionStart": [`, 1)
	withTheirs, err := hookfile.Install([]byte(doc), append(Entries("/bin/session-hooks", false), hookfile.Entry{Event: "SessionStart", Matcher: "startup", Command: "mine.sh", Timeout: 5}), "")
	if err != nil || !strings.Contains(string(withTheirs.JSON), "stop.sh") {
		t.Fatalf("%v:\n%s", err, withTheirs.JSON)
	}
	os.WriteFile(path, withTheirs.JSON, 0o600)
	mine := Key(path, "SessionStart", 2, 0)
	config := "model = \"m\"\n\n" + header(mine) + "\ntrusted_hash = \"sha256:mine\"\n\n" + header(Key(path, "Stop", 0, 0)) + "\ntrusted_hash = \"sha256:stop\"\n"
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o600)
	if err := Uninstall(Options{Home: home, Out: io.Discard}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(home, "config.toml"))
	want := strings.Replace(config, header(mine), header(Key(path, "SessionStart", 0, 0)), 1)
	if string(got) != want {
		t.Errorf("config.toml:\n%s\nwant:\n%s", got, want)
	}
}

func TestSnakeCaseOfEveryCapital(t *testing.T) {
	for in, want := range map[string]string{"SessionStart": "session_start", "ZedAlpha": "zed_alpha", "A": "a", "preZ": "pre_z"} {
		if got := snake(in); got != want {
			t.Errorf("snake(%q) = %q, want %q", in, got, want)
		}
	}
}

// A table on the file's first line is found like any other.
func TestATableOnTheFirstLine(t *testing.T) {
	config := header("k") + "\ntrusted_hash = \"sha256:old\"\n"
	if got := string(SetTrust([]byte(config), map[string]string{"k": "sha256:new"}, []string{"k"})); got != header("k")+"\ntrusted_hash = \"sha256:new\"\n" {
		t.Errorf("set: %q", got)
	}
	if got := string(RenameTrust([]byte(config), []string{"k"}, []string{"j"})); got != header("j")+"\ntrusted_hash = \"sha256:old\"\n" {
		t.Errorf("renamed: %q", got)
	}
	if got := string(RemoveTrust([]byte(config), []string{"k"})); got != "" {
		t.Errorf("removed: %q", got)
	}
}

func TestUninstallSaysWhatItRemoved(t *testing.T) {
	home := t.TempDir()
	res, _ := hookfile.Install(nil, Entries("/bin/session-hooks", false), "")
	path := filepath.Join(home, "hooks.json")
	os.WriteFile(path, res.JSON, 0o600)
	os.WriteFile(filepath.Join(home, "config.toml"), []byte("model = \"m\"\n\n"+header(Key(path, "SessionEnd", 0, 0))+"\ntrusted_hash = \"h\"\n"), 0o600)
	var out strings.Builder
	if err := Uninstall(Options{Home: home, Out: &out}); err != nil || !strings.Contains(out.String(), "Removed 4 hook(s) of session-hooks") {
		t.Errorf("%v: %q", err, out.String())
	}
	if got, _ := os.ReadFile(filepath.Join(home, "config.toml")); string(got) != "model = \"m\"\n" {
		t.Errorf("config.toml: %q", got)
	}
}

// Codex's SessionStart source can be fork (its hook schema, 0.169 to
// 0.171): a forked session gets the brief too, and never the recovery.
func TestTheBriefIsWiredForEverySourceCodexStartsASessionWith(t *testing.T) {
	for _, e := range Entries("session-hooks", false) {
		if e.Event == "SessionStart" && strings.HasSuffix(e.Command, " init") {
			if e.Matcher != "startup|resume|clear|fork" {
				t.Errorf("SessionStart init matcher %q", e.Matcher)
			}
			return
		}
	}
	t.Error("no SessionStart init entry")
}
