package install

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/install/backup"
	"github.com/session-hooks/session-hooks/install/hookfile"
)

// Uninstall leaves no file and no folder install made: a project that had
// no .gemini gets none back; one whose settings.json existed keeps it, as
// it was, even when our entries were all it held.
func TestUninstallLeavesNothingInstallCreated(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // where install records what it created
	t.Setenv("HOME", t.TempDir())
	for _, tt := range []struct {
		name, before string // "": no .gemini folder
		wantFile     bool
	}{
		{"no .gemini folder", "", false},
		{"an empty settings file of the user's", "{}\n", true},
		{"the user's settings", `{"theme": "dark"}` + "\n", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			project := t.TempDir()
			path := filepath.Join(project, ".gemini", "settings.json")
			if tt.before != "" {
				os.MkdirAll(filepath.Dir(path), 0o755)
				os.WriteFile(path, []byte(tt.before), 0o644)
			}
			if err := Install(path, "session-hooks", nil, io.Discard, false); err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			if err := Uninstall(path, &out); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			switch {
			case !tt.wantFile && err == nil:
				t.Errorf("uninstall left %s, which install created: %q (%s)", path, b, out.String())
			case !tt.wantFile:
				if _, err := os.Stat(filepath.Dir(path)); err == nil {
					t.Errorf("uninstall left the .gemini folder install created")
				}
				if backup.CreatedByInstall(path) || backup.CreatedByInstall(filepath.Dir(path)) {
					t.Errorf("uninstall still records that install created what it removed")
				}
			case err != nil:
				t.Errorf("uninstall removed the user's %s: %v", path, err)
			case strings.Join(strings.Fields(string(b)), "") != strings.Join(strings.Fields(tt.before), ""):
				t.Errorf("the user's settings came back as %q, want %q", b, tt.before)
			}
		})
	}
}

// A dry run prints the change as a diff and writes nothing: no file, no
// folder, no record that install created them.
func TestADryRunWritesNothing(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	path := filepath.Join(t.TempDir(), ".gemini", "settings.json")
	var out strings.Builder
	if err := Install(path, "session-hooks", nil, &out, true); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "Would change "+path+" (nothing written):\n") || !strings.Contains(out.String(), `+`) {
		t.Errorf("the dry run said %q", out.String())
	}
	if _, err := os.Stat(filepath.Dir(path)); err == nil {
		t.Error("the dry run made the .gemini folder")
	}
	if backup.CreatedByInstall(path) || backup.CreatedByInstall(filepath.Dir(path)) {
		t.Error("the dry run recorded that it created what it did not")
	}
}

// The entries come from the event table by Gemini's names, timeouts in
// milliseconds; AfterAgent's long-running checks are added when asked,
// kept when already wired, and removed when asked off.
func TestLongRunningChecksOnAfterAgent(t *testing.T) {
	got := Entries("sh", true)
	if len(got) != 5 || got[0] != (hookfile.Entry{Event: "SessionStart", Command: "sh --agent gemini init", Timeout: 30000}) ||
		got[1].Event != "BeforeAgent" || got[2].Event != "PreCompress" || got[3] != (hookfile.Entry{Event: "SessionEnd", Command: "sh --agent gemini end", Timeout: 5000}) ||
		got[4] != (hookfile.Entry{Event: "AfterAgent", Command: "sh --agent gemini stop", Timeout: 30000}) {
		t.Fatalf("Entries = %+v", got)
	}
	if n := len(Entries("sh", false)); n != 4 {
		t.Errorf("%d entries without the long-running checks", n)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	path := filepath.Join(t.TempDir(), ".gemini", "settings.json")
	yes, no := true, false
	has := func() bool {
		b, _ := os.ReadFile(path)
		return strings.Contains(string(b), "--agent gemini stop")
	}
	steps := []struct {
		asked *bool
		want  bool
	}{{&yes, true}, {nil, true}, {&no, false}, {nil, false}}
	for i, s := range steps {
		if err := Install(path, "session-hooks", s.asked, io.Discard, false); err != nil {
			t.Fatal(err)
		}
		if has() != s.want {
			t.Errorf("step %d: AfterAgent wired %v, want %v", i, has(), s.want)
		}
	}
}

// A committed .gemini that links out of the project is not written
// through: install refuses, and the file it leads to stays as it was.
func TestInstallRefusesACommittedFolderLinkOutOfTheProject(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	project, elsewhere := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(elsewhere, "settings.json"), []byte(`{"theme": "dark"}`), 0o644)
	os.Symlink(elsewhere, filepath.Join(project, ".gemini"))
	path := filepath.Join(project, ".gemini", "settings.json")
	if err := Install(path, "session-hooks", nil, io.Discard, false); err == nil || !strings.Contains(err.Error(), "not writing through the link") {
		t.Errorf("install through a link out of the project: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(elsewhere, "settings.json")); string(b) != `{"theme": "dark"}` {
		t.Errorf("the file outside became %s", b)
	}
}

// A change to a settings file that was there keeps its previous version,
// and says where; a file install creates names none.
func TestInstallSaysWhereThePreviousVersionIsKept(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	path := filepath.Join(t.TempDir(), ".gemini", "settings.json")
	var out strings.Builder
	if err := Install(path, "session-hooks", nil, &out, false); err != nil || strings.Contains(out.String(), "previous version") {
		t.Errorf("a new file: %v\n%s", err, out.String())
	}
	os.WriteFile(path, []byte(`{"theme": "dark"}`), 0o600)
	out.Reset()
	if err := Install(path, "session-hooks", nil, &out, false); err != nil {
		t.Fatal(err)
	}
	_, kept, ok := strings.Cut(out.String(), "The previous version is kept as ")
	if b, err := os.ReadFile(strings.TrimSuffix(strings.TrimSpace(kept), ".")); !ok || err != nil || string(b) != `{"theme": "dark"}` {
		t.Errorf("the previous version is not where it says: %v\n%s", err, out.String())
	}
}
