package install

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestBelowTopSaysWhatRunsFromASubdirectory(t *testing.T) {
	top := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", top).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	top, _ = filepath.EvalSymlinks(top)
	sub := filepath.Join(top, "a", "b")
	os.MkdirAll(sub, 0o755)
	if got := BelowTop(top, "Gemini CLI", ".gemini/settings.json"); got != "" {
		t.Errorf("at the top: %q", got)
	}
	if got := BelowTop(t.TempDir(), "Gemini CLI", ".gemini/settings.json"); got != "" {
		t.Errorf("outside a repository: %q", got)
	}
	got := BelowTop(sub, "Gemini CLI", ".gemini/settings.json")
	for _, want := range []string{"Gemini CLI started here (" + sub + ")", "not at the top of the repository, " + top, "Start Gemini CLI at " + top, "--scope user"} {
		if !strings.Contains(got, want) {
			t.Errorf("below the top: %q lacks %q", got, want)
		}
	}
}
