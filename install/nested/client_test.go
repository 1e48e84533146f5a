package nested

import (
	"time"

	"errors"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// qwenish is a client as Qwen Code is one: its names, its folder, its
// bookkeeping (the package names no client; the test takes one).
var qwenish = Client{Agent: protocol.Agent{Name: "qwen", Label: "Qwen Code", ProjectDirEnv: "QWEN_PROJECT_DIR"},
	Events: map[string][]string{"init": {"SessionStart"}, "init --compact-recovery": {"UserPromptSubmit", "PostToolUse"},
		"pre-compact": {"PreCompact"}, "end": {"SessionEnd"}, "stop": {"Stop"}},
	Dir: ".qwen", StartDirOnly: true, DefaultTimeout: 60 * time.Second, Bookkeeping: []string{"$version"}}

// The entries are the event table's rows by Qwen Code's names: the brief
// on SessionStart with the table's matcher (a compaction's start runs
// nothing), the recovery on the next prompt and tool result with none,
// the snapshot, the end; the check on Stop only when asked.
func TestEntriesAreTheTablesRowsByQwensNames(t *testing.T) {
	var got []string
	for _, e := range qwenish.Entries("session-hooks", false) {
		got = append(got, e.Event+" ["+e.Matcher+"] "+e.Command)
	}
	want := []string{
		"SessionStart [startup|resume|clear|fork] session-hooks --agent qwen init",
		"UserPromptSubmit [] session-hooks --agent qwen init --compact-recovery",
		"PostToolUse [] session-hooks --agent qwen init --compact-recovery",
		"PreCompact [] session-hooks --agent qwen pre-compact",
		"SessionEnd [] session-hooks --agent qwen end",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if lr := qwenish.Entries("session-hooks", true); lr[len(lr)-1].Event != "Stop" || !strings.HasSuffix(lr[len(lr)-1].Command, " stop") {
		t.Errorf("with the long-running checks, the last entry is %+v", lr[len(lr)-1])
	}
}

// Install keeps every other byte; a second install changes nothing; the
// check on Stop stays wired unless asked off; uninstall takes back a file
// it created, even after Qwen Code wrote its schema's "$version" into it,
// and gives back a file of the user's as it was.
func TestInstallAndUninstallGiveBackWhatWasThere(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	project := t.TempDir()
	path := filepath.Join(project, ".qwen", "settings.json")
	yes, no := true, false
	if err := qwenish.Install(path, "session-hooks", &yes, io.Discard, false); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if n := len(gjson.GetBytes(b, "hooks.Stop").Array()); n != 1 {
		t.Fatalf("the check on Stop: %d entries\n%s", n, b)
	}
	var out strings.Builder
	if err := qwenish.Install(path, "session-hooks", nil, &out, false); err != nil || !strings.Contains(out.String(), "needs no change") {
		t.Errorf("a second install: %v %q", err, out.String())
	}
	if err := qwenish.Install(path, "session-hooks", &no, io.Discard, false); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); gjson.GetBytes(b, "hooks.Stop").Exists() {
		t.Errorf("the check on Stop stays after --long-running=false:\n%s", b)
	}
	b, _ = os.ReadFile(path)
	os.WriteFile(path, append([]byte(`{"$version": 4,`), b[1:]...), 0o600) // as Qwen Code migrates it
	if err := qwenish.Uninstall(path, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) {
		t.Errorf("uninstall left the file and the folder install created: %v", err)
	}

	theirs := "{\n  // mine\n  \"model\": {\"name\": \"qwen3\"}\n}\n"
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(theirs), 0o644)
	if err := qwenish.Install(path, "session-hooks", nil, io.Discard, false); err != nil {
		t.Fatal(err)
	}
	if err := qwenish.Uninstall(path, io.Discard); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != theirs {
		t.Errorf("the user's settings came back as:\n%s", b)
	}
}

// status says what is not wired, and lists what is; a settings file it
// cannot read is a problem.
func TestStatusSaysWhatIsMissing(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	project, home := t.TempDir(), t.TempDir()
	st := qwenish.ReadStatus(project, home)
	if len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "session-hooks is not wired for Qwen Code: run session-hooks --agent qwen install") {
		t.Errorf("nothing wired: %q", st.Warnings)
	}
	path, _ := qwenish.Path("project", project, func() (string, error) { return home, nil })
	qwenish.Install(path, "session-hooks", nil, io.Discard, false)
	if st := qwenish.ReadStatus(project, home); len(st.Warnings) != 0 || len(st.Scopes[0].Hooks) != 5 || st.Scopes[0].State != "present" {
		t.Errorf("all wired: %q, %d entries", st.Warnings, len(st.Scopes[0].Hooks))
	}
	os.WriteFile(path, []byte("{not json"), 0o644)
	if st := qwenish.ReadStatus(project, home); len(st.Warnings) == 0 || st.Scopes[0].State != "unreadable" {
		t.Errorf("an unreadable file: %+v", st)
	}
	if _, err := qwenish.Path("local", project, func() (string, error) { return home, nil }); err == nil || !strings.Contains(err.Error(), "project and user") {
		t.Errorf("an unknown scope: %v", err)
	}
	if _, err := qwenish.Path("user", project, func() (string, error) { return "", errors.New("no home") }); err == nil || err.Error() != "no home" {
		t.Errorf("the user's scope without a home: %v", err)
	}
	if st := qwenish.ReadStatus(t.TempDir(), home); st.Scopes[0].State != "absent" || st.Scopes[1].State != "absent" {
		t.Errorf("no file is absent: %+v", st.Scopes)
	}
}

// Doctor's rehearsals give each entry once, with its timeout; an output
// that is not JSON is a problem, as Qwen Code reads a context only as JSON.
func TestRehearsalsAndTheReplyCheck(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	project, home := t.TempDir(), t.TempDir()
	path, _ := qwenish.Path("project", project, func() (string, error) { return home, nil })
	qwenish.Install(path, "session-hooks", nil, io.Discard, false)
	rs := qwenish.Rehearsals(qwenish.ReadStatus(project, home), project)
	if len(rs) != 5 || rs[len(rs)-1].Limit.Seconds() != 5 || !strings.Contains(string(rs[0].Payload), `"source":"startup"`) {
		t.Errorf("the rehearsals: %d, the end's limit %s, the start's payload %s", len(rs), rs[len(rs)-1].Limit, rs[0].Payload)
	}
	if rs[0].Check([]byte("plain text")) == "" || rs[0].Check([]byte(`{"hookSpecificOutput":{}}`)) != "" || rs[0].Check(nil) != "" {
		t.Error("the reply check")
	}
}

// A dry run prints the change and writes nothing; install into a file of
// the user's says where its previous version is kept.
func TestADryRunWritesNothingAndAChangeKeepsTheOldVersion(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	path := filepath.Join(t.TempDir(), ".qwen", "settings.json")
	var out strings.Builder
	if err := qwenish.Install(path, "session-hooks", nil, &out, true); err != nil || !strings.Contains(out.String(), "Would change "+path+" (nothing written)") {
		t.Errorf("a dry run: %v\n%s", err, out.String())
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a dry run wrote the file: %v", err)
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(`{"model": {}}`), 0o600)
	out.Reset()
	if err := qwenish.Install(path, "session-hooks", nil, &out, false); err != nil || !strings.Contains(out.String(), "Changed "+path) ||
		!strings.Contains(out.String(), "The previous version is kept as ") {
		t.Errorf("a change to the user's file: %v\n%s", err, out.String())
	}
	out.Reset()
	qwenish.Uninstall(path, &out)
	if strings.Contains(out.String(), "Removed the session-hooks entries") {
		t.Errorf("uninstall removed the user's file:\n%s", out.String())
	}
}

// Qwen Code started in a subdirectory reads none of the top's project
// settings: status there says so and what works.
func TestStatusBelowTheTopSaysTheProjectsHooksDoNotRun(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	project, home := t.TempDir(), t.TempDir()
	if out, err := exec.Command("git", "init", "-q", project).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	path, _ := qwenish.Path("project", project, func() (string, error) { return home, nil })
	qwenish.Install(path, "session-hooks", nil, io.Discard, false)
	sub := filepath.Join(project, "sub")
	os.Mkdir(sub, 0o755)
	if st := qwenish.ReadStatus(sub, home); len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "Qwen Code started here") {
		t.Errorf("below the top: %q", st.Warnings)
	}
	if st := qwenish.ReadStatus(project, home); len(st.Warnings) != 0 {
		t.Errorf("at the top: %q", st.Warnings)
	}
	user, _ := qwenish.Path("user", project, func() (string, error) { return home, nil })
	qwenish.Uninstall(path, io.Discard)
	qwenish.Install(user, "session-hooks", nil, io.Discard, false)
	if st := qwenish.ReadStatus(sub, home); len(st.Warnings) != 0 {
		t.Errorf("below the top, wired for the user: %q", st.Warnings)
	}
}
