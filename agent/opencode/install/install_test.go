package install

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/install/hookfile"
)

// The plugin's entries are the event table's rows by OpenCode's events,
// each with the contract's event its payload names; the checks only when
// asked.
func TestEntriesAreTheTablesRowsByOpenCodesEvents(t *testing.T) {
	var got []string
	for _, e := range Entries("session-hooks", false) {
		got = append(got, e.On+" "+e.Event+" "+e.Command)
	}
	want := []string{
		"experimental.chat.system.transform SessionStart session-hooks --agent opencode init",
		"session.compacted SessionStart session-hooks --agent opencode init --compact-recovery",
		"experimental.session.compacting PreCompact session-hooks --agent opencode pre-compact",
		"session.idle SessionEnd session-hooks --agent opencode end",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	lr := Entries("session-hooks", true)
	if last := lr[len(lr)-1]; last.On != "session.idle" || last.Event != "Stop" || last.Args != "stop" {
		t.Errorf("with the long-running checks, the last entry is %+v", last)
	}
}

// What install writes is read back whole, and is plugin.js with its
// entries: a file that only shares our name is not ours.
func TestThePluginHoldsItsEntries(t *testing.T) {
	entries := Entries(`'/opt/my tools/session-hooks'`, true)
	doc := Render(entries)
	got, err := Parse(doc)
	if err != nil || len(got) != len(entries) || got[0] != entries[0] {
		t.Fatalf("Parse(Render) = %+v, %v", got, err)
	}
	if !bytes.Contains(doc, []byte("export const SessionHooks")) || bytes.Contains(doc, []byte("{ entries: [] }")) {
		t.Errorf("the plugin:\n%s", doc)
	}
	for _, foreign := range []string{"export default async () => ({})\n", string(doc[:200]), strings.Replace(string(doc), "/*WIRED*/ {", "/*WIRED*/ {x", 1)} {
		if _, err := Parse([]byte(foreign)); err == nil {
			t.Errorf("taken for ours: %q", foreign[:40])
		}
	}
}

func TestPathsOfTheScopes(t *testing.T) {
	project := gitInit(t)
	sub := filepath.Join(project, "a", "b")
	os.MkdirAll(sub, 0o755)
	home := func() (string, error) { return "/home/u", nil }
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	for _, tt := range []struct{ scope, xdg, want string }{
		{"project", "", filepath.Join(project, ".opencode", "plugin", FileName)},
		{"user", "", "/home/u/.config/opencode/plugin/" + FileName},
		{"user", "/x", "/x/opencode/plugin/" + FileName},
	} {
		env["XDG_CONFIG_HOME"] = tt.xdg
		if got, err := Path(tt.scope, sub, getenv, home); err != nil || got != tt.want {
			t.Errorf("%s (XDG %q): %q, %v", tt.scope, tt.xdg, got, err)
		}
	}
	if _, err := Path("local", sub, getenv, home); err == nil || !strings.Contains(err.Error(), "project and user") {
		t.Errorf("an unknown scope: %v", err)
	}
}

// Install writes the plugin and the folders it needs; a second install
// changes nothing; the checks stay unless asked off; uninstall removes the
// file and the folders install made, and leaves a file that is not ours.
func TestInstallAndUninstallGiveBackWhatWasThere(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	project := t.TempDir()
	path := filepath.Join(project, ".opencode", "plugin", FileName)
	yes, no := true, false
	var first strings.Builder
	if err := Install(path, "session-hooks", &yes, project, &first, false); err != nil || strings.Contains(first.String(), "previous version") {
		t.Fatalf("the first install: %v %q", err, first.String())
	}
	var out strings.Builder
	if err := Install(path, "session-hooks", nil, project, &out, false); err != nil || !strings.Contains(out.String(), "needs no change") {
		t.Errorf("a second install: %v %q", err, out.String())
	}
	if args := argsOf(t, path); !strings.Contains(args, "stop") {
		t.Errorf("the checks went: %s", args)
	}
	if err := Install(path, "session-hooks", &no, project, io.Discard, false); err != nil || strings.Contains(argsOf(t, path), "stop") {
		t.Errorf("the checks stay after --long-running=false: %v", err)
	}
	if err := Install(path, "session-hooks", nil, project, io.Discard, false); err != nil || strings.Contains(argsOf(t, path), "stop") {
		t.Errorf("an install without --long-running adds the checks: %v", err)
	}
	out.Reset()
	if err := Install(path, "other-hooks", nil, project, &out, false); err != nil || !strings.Contains(out.String(), "The previous version is kept as ") {
		t.Errorf("a change keeps the previous version: %v %q", err, out.String())
	}
	out.Reset()
	if err := Uninstall(path, &out); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(project, ".opencode")); !os.IsNotExist(err) {
		t.Errorf("the folders install made stay: %v\n%s", err, out.String())
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte("export const Mine = async () => ({})\n"), 0o644)
	if err := Install(path, "session-hooks", nil, project, io.Discard, false); err == nil || !strings.Contains(err.Error(), "not the plugin session-hooks writes") {
		t.Errorf("install over someone else's plugin: %v", err)
	}
	if err := Uninstall(path, io.Discard); err == nil {
		t.Error("uninstall removed someone else's plugin")
	}
	if b, _ := os.ReadFile(path); string(b) != "export const Mine = async () => ({})\n" {
		t.Errorf("someone else's plugin changed: %q", b)
	}
}

func gitInit(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	real, _ := filepath.EvalSymlinks(dir)
	return real
}

func argsOf(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	for _, e := range entries {
		args = append(args, e.Args)
	}
	return strings.Join(args, ",")
}

func TestADryRunWritesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".opencode", "plugin", FileName)
	var out strings.Builder
	if err := Install(path, "session-hooks", nil, filepath.Dir(path), &out, true); err != nil || !strings.Contains(out.String(), "nothing written") {
		t.Errorf("dry run: %v %q", err, out.String())
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a dry run wrote %s", path)
	}
}

// A link committed in a cloned repository does not make install write
// outside the project.
func TestInstallDoesNotWriteThroughALinkOutOfTheProject(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	project, outside := t.TempDir(), t.TempDir()
	os.Symlink(outside, filepath.Join(project, ".opencode"))
	path := filepath.Join(project, ".opencode", "plugin", FileName)
	if err := Install(path, "session-hooks", nil, project, io.Discard, false); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("wrote through the link: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("wrote outside the project: %v", entries)
	}
}

// Status says which scope runs what, and what is missing or doubled:
// both plugins load, and OpenCode runs each.
func TestStatusSaysWhatIsWired(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	project, home := gitInit(t), t.TempDir()
	getenv := func(string) string { return "" }
	homeOf := func() (string, error) { return home, nil }
	st := ReadStatus(project, getenv, homeOf)
	if len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "not wired for OpenCode") {
		t.Errorf("nothing installed: %q", st.Warnings)
	}
	for _, scope := range []string{"project", "user"} {
		path, _ := Path(scope, project, getenv, homeOf)
		if err := Install(path, "session-hooks", nil, filepath.Dir(filepath.Dir(filepath.Dir(path))), io.Discard, false); err != nil {
			t.Fatal(err)
		}
		st = ReadStatus(project, getenv, homeOf)
		if scope == "project" && (len(st.Warnings) != 0 || len(st.Scopes[0].Hooks) != 4 || st.Scopes[0].State != "present") {
			t.Errorf("the project's plugin: %+v", st)
		}
	}
	if len(st.Warnings) != 4 || !strings.Contains(st.Warnings[0], "project and user plugin files: OpenCode runs each") {
		t.Errorf("both scopes: %q", st.Warnings)
	}
	if r := Rehearsals(st, project); len(r) != 4 || !strings.Contains(string(r[1].Payload), `"source":"compact"`) || r[0].Limit != 30*time.Second {
		t.Errorf("the rehearsals: %+v", r)
	}
	path, _ := Path("user", project, getenv, homeOf)
	os.WriteFile(path, []byte("export const Mine = 1\n"), 0o644)
	st = ReadStatus(project, getenv, homeOf)
	if len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "session-hooks leaves it alone") {
		t.Errorf("someone else's plugin: %q", st.Warnings)
	}
	if _, err := hookfile.ParseHookCall(st.Scopes[0].Hooks[0].Command, ""); err != nil {
		t.Errorf("doctor cannot rehearse %q: %v", st.Scopes[0].Hooks[0].Command, err)
	}
}
