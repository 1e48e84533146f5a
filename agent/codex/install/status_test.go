package install

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/agent/claude/settings"
)

// Without a codex to ask, status lists what is wired with its trust
// unknown, says what is not wired, and says that Codex was not asked.
func TestStatusWithoutCodexSaysWhatItCouldNotAsk(t *testing.T) {
	home := t.TempDir()
	res, err := settings.Install(nil, Entries("/bin/session-hooks")[:3], "")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(home, "hooks.json"), res.JSON, 0o600)
	st, err := ReadStatus(context.Background(), Options{Home: home, Codex: filepath.Join(home, "no-codex"), Dir: home, Out: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Hooks) != 3 || st.Hooks[0].Trust != "unknown" {
		t.Errorf("hooks %+v", st.Hooks)
	}
	all := strings.Join(st.Warnings, "\n")
	if len(st.Warnings) != 2 || !strings.Contains(all, "not wired: SessionEnd → session-hooks --agent codex end") ||
		!strings.Contains(all, "Codex was not asked which hooks it trusts") {
		t.Errorf("warnings:\n%s", all)
	}
}
