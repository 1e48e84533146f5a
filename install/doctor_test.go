package install

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/wiring"
)

// Each entry that fails and each wiring problem counts; the text says FAIL
// for both, and an entry that runs more than session-hooks is never run.
func TestAgentDoctorCountsFailedRunsAndWiring(t *testing.T) {
	project := t.TempDir()
	d := RunDoctor("gemini", project, []string{"hooksConfig.enabled is false"}, []hookfile.Rehearsal{
		{Event: "SessionStart", Command: "session-hooks --agent gemini init; touch " + project + "/ran", Limit: time.Second},
	})
	if d.Problems != 2 || len(d.Runs) != 1 || d.Runs[0].Result != "fail" || !strings.Contains(d.Runs[0].Problem, "more than session-hooks") {
		t.Fatalf("%+v", d)
	}
	text := d.Text(wiring.Reader{Label: "Gemini CLI"})
	for _, want := range []string{"Project: " + project + " (Gemini CLI)", "FAIL SessionStart → session-hooks --agent gemini init; touch", "FAIL hooksConfig.enabled is false", "is writable"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	if d := RunDoctor("codex", project, nil, nil); d.Problems != 0 {
		t.Errorf("nothing to fail: %d problems", d.Problems)
	}
}

// doctor judges the program the client will run, found as the client
// finds it: one it cannot find, or another binary than the one doctor
// rehearsed, is a problem; a link to it, the npm package's command that
// runs it, a path from the project directory and the plugin's bridge are
// not.
func TestDoctorJudgesTheProgramTheClientWillRun(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	self := filepath.Join(project, "bin", "session-hooks")
	other := filepath.Join(root, "old", "session-hooks")
	npm := filepath.Join(root, "lib", "node_modules", "session-hooks")
	npmBinary := filepath.Join(npm, "node_modules", "@session-hooks", "linux-x64", "bin", "session-hooks")
	for _, f := range []string{self, other, filepath.Join(npm, "bin", "session-hooks.js"), npmBinary} {
		os.MkdirAll(filepath.Dir(f), 0o755)
		os.WriteFile(f, []byte("x"), 0o755)
	}
	link := filepath.Join(root, "link")
	os.Symlink(self, link)
	npmLink := filepath.Join(root, "npmlink")
	os.Symlink(filepath.Join(npm, "bin", "session-hooks.js"), npmLink)
	on := func(path string) func(string) (string, error) {
		return func(string) (string, error) { return path, nil }
	}
	off := func(string) (string, error) { return "", errors.New("not found") }
	for _, tt := range []struct {
		name, program, self string
		lookPath            func(string) (string, error)
		want                string
	}{
		{"on PATH, a link to it", "session-hooks", self, on(link), ""},
		{"not on PATH", "session-hooks", self, off, "the client runs session-hooks, which is not on PATH"},
		{"another binary on PATH", "session-hooks", self, on(other), "the client runs " + other + ", not " + self},
		{"the npm command running it", "session-hooks", npmBinary, on(npmLink), ""},
		{"the npm command running another", "session-hooks", self, on(npmLink), "not " + self},
		{"from the project directory", "$CLAUDE_PROJECT_DIR/bin/session-hooks", self, off, ""},
		{"relative to the project", "bin/session-hooks", self, off, ""},
		{"a path that is not there", "/nowhere/session-hooks", self, off, "the client runs /nowhere/session-hooks, which does not exist"},
		{"the plugin's bridge", "${CLAUDE_PLUGIN_ROOT}/bin/session-hooks-bridge", self, off, ""},
		{"no program", "", self, off, ""},
	} {
		got := wiredProblem(tt.program, project, tt.self, tt.lookPath)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// doctor says what a hook costs when the client will run npm's launcher
// (a script that starts Node.js), and nothing when npm's install script
// put the binary in its place.
func TestDoctorSaysWhenTheClientRunsNpmsLauncher(t *testing.T) {
	dir := t.TempDir()
	launcher := filepath.Join(dir, "node_modules", "session-hooks", "bin", "session-hooks.js")
	os.MkdirAll(filepath.Dir(launcher), 0o755)
	link := filepath.Join(dir, "bin", "session-hooks")
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(launcher, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	lookPath := func(string) (string, error) { return link, nil }
	os.WriteFile(launcher, []byte("#!/usr/bin/env node\n"), 0o755)
	if n := LauncherNote("session-hooks", dir, lookPath); !strings.Contains(n, "starts Node.js before the binary") {
		t.Errorf("through the launcher: %q", n)
	}
	os.WriteFile(launcher, []byte("\x7fELF binary"), 0o755)
	if n := LauncherNote("session-hooks", dir, lookPath); n != "" {
		t.Errorf("the binary in the launcher's place: %q", n)
	}
	if n := LauncherNote("/usr/bin/true", dir, lookPath); n != "" {
		t.Errorf("another program: %q", n)
	}
}
