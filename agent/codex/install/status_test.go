package install

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/install/hookfile"
)

// Without a codex to ask, status lists what is wired with its trust
// unknown, says what is not wired, and says that Codex was not asked.
func TestStatusWithoutCodexSaysWhatItCouldNotAsk(t *testing.T) {
	home := t.TempDir()
	res, err := hookfile.Install(nil, Entries("/bin/session-hooks", false)[:3], "")
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

// Codex gives SessionEnd at most 3 s and cuts an output past 10,000
// characters: doctor holds our entries to both.
func TestCodexRehearsalsHoldSessionEndTo3sAndTheOutputTo10000(t *testing.T) {
	rs := Rehearsals(Status{Hooks: []HookStatus{
		{Event: "SessionEnd", Command: "session-hooks --agent codex end", Timeout: 30},
		{Event: "SessionStart", Matcher: "compact", Command: "session-hooks --agent codex init --compact-recovery", Timeout: 30},
		{Event: "PreCompact", Command: "session-hooks --agent codex pre-compact"},
	}}, "/p")
	if len(rs) != 3 || rs[0].Limit.Seconds() != 3 || rs[1].Limit.Seconds() != 30 || rs[2].Limit.Seconds() != 600 {
		t.Fatalf("limits %v %v %v", rs[0].Limit, rs[1].Limit, rs[2].Limit)
	}
	if !strings.Contains(string(rs[1].Payload), `"source":"compact"`) {
		t.Errorf("payload %s", rs[1].Payload)
	}
	if rs[0].Check([]byte(strings.Repeat("é", 10000))) != "" || rs[0].Check([]byte(strings.Repeat("é", 10001))) == "" {
		t.Errorf("the output check is not at 10,000 characters")
	}
}
