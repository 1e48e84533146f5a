package install

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The entries are the event table's rows by Qwen Code's names: the brief
// on SessionStart with the table's matcher (a compaction's start runs
// nothing), the recovery on the next prompt and tool result with none,
// the snapshot, the end; the check on Stop only when asked.
func TestEntriesAreTheTablesRowsByQwensNames(t *testing.T) {
	var got []string
	for _, e := range Client.Entries("session-hooks", false) {
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
	if lr := Client.Entries("session-hooks", true); lr[len(lr)-1].Event != "Stop" || !strings.HasSuffix(lr[len(lr)-1].Command, " stop") {
		t.Errorf("with the long-running checks, the last entry is %+v", lr[len(lr)-1])
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
	path, _ := Client.Path("project", project, func() (string, error) { return home, nil })
	Client.Install(path, "session-hooks", nil, io.Discard, false)
	sub := filepath.Join(project, "sub")
	os.Mkdir(sub, 0o755)
	if st := Client.ReadStatus(sub, home); len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "Qwen Code started here") {
		t.Errorf("below the top: %q", st.Warnings)
	}
	if st := Client.ReadStatus(project, home); len(st.Warnings) != 0 {
		t.Errorf("at the top: %q", st.Warnings)
	}
}
