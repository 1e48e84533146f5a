package install

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The entries are the event table's rows by Factory Droid's names: the brief
// on SessionStart with the table's matcher, the recovery on the next tool
// result and prompt, the snapshot after every tool result and on
// PreCompact, the end; the check on Stop only when asked.
func TestEntriesAreTheTablesRowsByDroidsNames(t *testing.T) {
	var got []string
	for _, e := range Client.Entries("session-hooks", false) {
		got = append(got, e.Event+" ["+e.Matcher+"] "+e.Command)
	}
	want := []string{
		"SessionStart [startup|resume|clear|fork] session-hooks --agent droid init",
		"PostToolUse [] session-hooks --agent droid init --compact-recovery",
		"UserPromptSubmit [] session-hooks --agent droid init --compact-recovery",
		"PostToolUse [] session-hooks --agent droid pre-compact",
		"PreCompact [] session-hooks --agent droid pre-compact",
		"SessionEnd [] session-hooks --agent droid end",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if lr := Client.Entries("session-hooks", true); lr[len(lr)-1].Event != "Stop" || !strings.HasSuffix(lr[len(lr)-1].Command, " stop") {
		t.Errorf("with the long-running checks, the last entry is %+v", lr[len(lr)-1])
	}
}

// Doctor's rehearsals give each entry once, with its timeout; an output
// that is not JSON is a problem, as Factory Droid reads a context only as JSON.
func TestRehearsalsAndTheReplyCheck(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	project, home := t.TempDir(), t.TempDir()
	path, _ := Client.Path("project", project, func() (string, error) { return home, nil })
	Client.Install(path, "session-hooks", nil, io.Discard, false)
	rs := Client.Rehearsals(Client.ReadStatus(project, home), project)
	if len(rs) != 6 || rs[len(rs)-1].Limit.Seconds() != 5 || !strings.Contains(string(rs[0].Payload), `"source":"startup"`) {
		t.Errorf("the rehearsals: %d, the end's limit %s, the start's payload %s", len(rs), rs[len(rs)-1].Limit, rs[0].Payload)
	}
	if rs[0].Check([]byte("plain text")) == "" || rs[0].Check([]byte(`{"hookSpecificOutput":{}}`)) != "" || rs[0].Check(nil) != "" {
		t.Error("the reply check")
	}
}

// Factory Droid started in a subdirectory runs the top's project hooks
// (seen with 0.225.2): status there says all is wired.
func TestStatusBelowTheTopSaysTheTopsHooksRun(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	project, home := t.TempDir(), t.TempDir()
	if out, err := exec.Command("git", "init", "-q", project).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	path, _ := Client.Path("project", project, func() (string, error) { return home, nil })
	Client.Install(path, "session-hooks", nil, io.Discard, false)
	sub := filepath.Join(project, "sub")
	os.Mkdir(sub, 0o755)
	if st := Client.ReadStatus(sub, home); len(st.Warnings) != 0 {
		t.Errorf("below the top: %q", st.Warnings)
	}
}
