package install

import (
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
