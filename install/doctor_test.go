package install

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/wiring"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/otlp"
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

func TestDoctorSaysWhatTheTelemetryExportDid(t *testing.T) {
	on := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	// Never on: nothing to say.
	project := t.TempDir()
	if s, p := CheckTelemetry(project, on()); s != "" || p != "" {
		t.Errorf("never on: %q, %q", s, p)
	}
	if s, p := CheckTelemetry(project, on(otlp.EnableVar, "1", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318")); s != "on in this environment; nothing sent yet" || p != "" {
		t.Errorf("on, nothing sent: %q, %q", s, p)
	}
	if _, p := CheckTelemetry(project, on(otlp.EnableVar, "1")); !strings.Contains(p, "telemetry is on in this environment, but no collector") {
		t.Errorf("on without an endpoint: %q", p)
	}
	// The hooks' own record of a failure, then of a success.
	d := logs.DirFor(project)
	since := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	if err := otlp.RecordFailure(d, errors.New("cannot reach the collector"), since); err != nil {
		t.Fatal(err)
	}
	if _, p := CheckTelemetry(project, on()); p != "the hooks have sent no event to the collector since 2026-11-28T09:00:00Z: cannot reach the collector" {
		t.Errorf("failing: %q", p)
	}
	b, _ := json.Marshal(otlp.State{Sent: 12, LastSent: since.Add(time.Hour)})
	if err := d.WriteSealed(otlp.StateFile, b, false); err != nil {
		t.Fatal(err)
	}
	if s, p := CheckTelemetry(project, on()); s != "12 event(s) sent to the collector, the last at 2026-11-28T10:00:00Z" || p != "" {
		t.Errorf("sent: %q, %q", s, p)
	}
}
