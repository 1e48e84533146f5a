package hooks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/hooks/state"
	"github.com/session-hooks/session-hooks/transcript"
)

// copilotRun runs one hook as Copilot CLI runs it (camelCase, no event
// name, no transcript path but for preCompact and agentStop: the session's
// events are found under COPILOT_HOME), and returns the context the model
// would get.
func copilotRun(t *testing.T, dir, home, args, extra string) string {
	t.Helper()
	var row eventtable.Event
	for _, e := range eventtable.Table {
		if strings.Join(e.Args(), " ") == args {
			row = e
		}
	}
	var out strings.Builder
	in := strings.NewReader(`{"sessionId":"s1","cwd":"` + dir + `","timestamp":1795750265506` + extra + `}`)
	Execute(in, &out, row, Options{Deadline: 5 * time.Second, Now: time.Now, Agent: Copilot,
		Getenv: func(k string) string { return map[string]string{"COPILOT_HOME": home}[k] }})
	if out.Len() == 0 {
		return ""
	}
	var reply struct {
		Context string `json:"additionalContext"`
	}
	if err := json.Unmarshal([]byte(out.String()), &reply); err != nil || reply.Context == "" {
		t.Fatalf("%s printed no additionalContext (%v): %s", args, err, out.String())
	}
	return reply.Context
}

// Copilot CLI writes the session's events when the process exits, and its
// preCompact runs only for a compaction: the snapshot marks the compaction,
// the next prompt (not the start, which the next resume replaces) gives
// the recovery once, and the request the prompt hook saw stands in the
// handoff before the events show it.
func TestCopilotRecoveryRidesTheNextPromptOnceAndTheHandoffKnowsTheLastRequest(t *testing.T) {
	dir, home := project(t), t.TempDir()
	events := filepath.Join(home, "session-state", "s1", "events.jsonl")
	os.MkdirAll(filepath.Dir(events), 0o700)
	os.WriteFile(events, []byte(`{"type":"user.message","timestamp":"2026-01-01T00:00:00Z","data":{"content":"fix the lexer"}}`+"\n"), 0o600)

	if out := copilotRun(t, dir, home, "init", `,"source":"new"`); !strings.Contains(out, "what GitHub Copilot CLI does not say of it") {
		t.Fatalf("the start has no brief:\n%s", out)
	}
	if out := copilotRun(t, dir, home, "init --compact-recovery", `,"prompt":"go on"`); out != "" {
		t.Errorf("a prompt with no compaction got:\n%s", out)
	}
	if out := copilotRun(t, dir, home, "pre-compact", `,"transcriptPath":"`+events+`","trigger":"auto"`); out != "" {
		t.Errorf("preCompact printed %q: Copilot CLI reads no output of it", out)
	}
	if out := copilotRun(t, dir, home, "init", `,"source":"resume"`); strings.Contains(out, "Pre-Compaction Context") {
		t.Errorf("the start gave the recovery, which the next resume's start would drop")
	}
	out := copilotRun(t, dir, home, "init --compact-recovery", `,"prompt":"and now?"`)
	if !strings.Contains(out, "Pre-Compaction Context") || !strings.Contains(out, "go on") {
		t.Fatalf("the first prompt after the compaction has no recovery quoting the request the prompt hook saw:\n%s", out)
	}
	if strings.Contains(out, "what GitHub Copilot CLI does not say of it") {
		t.Errorf("the recovery repeats the brief the start's block holds:\n%s", out)
	}
	if again := copilotRun(t, dir, home, "init --compact-recovery", `,"prompt":"more"`); again != "" {
		t.Errorf("the recovery came twice:\n%s", again)
	}

	copilotRun(t, dir, home, "end", `,"reason":"complete"`)
	b, err := os.ReadFile(filepath.Join(dir, ".claude", "logs", "sessions", "s1", HandoffFile))
	if err != nil {
		t.Fatal(err)
	}
	var h struct {
		LastPrompt string `json:"last_prompt"`
	}
	json.Unmarshal(b, &h)
	if h.LastPrompt != "more" {
		t.Errorf("the handoff's last request is %q, want the last the prompt hook saw", h.LastPrompt)
	}
}

// A resumed start replaces the previous start's block: what only that
// block held is given again; what a prompt put in the history is not.
func TestCopilotStartGivesAgainWhatThePreviousStartHeld(t *testing.T) {
	dir, home := project(t), t.TempDir()
	first := copilotRun(t, dir, home, "init", `,"source":"new"`)
	second := copilotRun(t, dir, home, "init", `,"source":"resume"`)
	if first == "" || !strings.Contains(second, "what GitHub Copilot CLI does not say of it") || !strings.Contains(second, "**Branch:**") {
		t.Errorf("the resumed start holds less than the one it replaces:\n%s\n---\n%s", first, second)
	}
}

func TestWithPromptSeen(t *testing.T) {
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	facts := func(prompt, when string, err bool) *transcript.Facts {
		f := &transcript.Facts{LastPrompt: prompt, LastPromptAt: when, PreviousPrompt: "older"}
		if err {
			f.OpenError = &transcript.ToolError{Error: "boom"}
		}
		return f
	}
	for _, tc := range []struct {
		name           string
		tf             *transcript.Facts
		s              *state.Session
		last, previous string
		errorBefore    bool
	}{
		{"no state", facts("fix it", "2026-01-01T11:00:00Z", false), nil, "fix it", "older", false},
		{"no prompt seen", facts("fix it", "2026-01-01T11:00:00Z", false), &state.Session{}, "fix it", "older", false},
		{"the same prompt", facts("fix it", "2026-01-01T11:00:00Z", false), &state.Session{Prompt: "fix it", PromptAt: at}, "fix it", "older", false},
		{"the transcript is newer", facts("fix it", "2026-01-01T12:00:01Z", false), &state.Session{Prompt: "go on", PromptAt: at}, "fix it", "older", false},
		{"the transcript at the same instant", facts("fix it", "2026-01-01T12:00:00Z", false), &state.Session{Prompt: "go on", PromptAt: at}, "fix it", "older", false},
		{"a terse prompt not written yet", facts("fix it", "2026-01-01T11:00:00Z", true), &state.Session{Prompt: "go on", PromptAt: at}, "go on", "fix it", true},
		{"a whole request not written yet", facts("fix it", "2026-01-01T11:00:00Z", false), &state.Session{Prompt: "now write the docs for the parser", PromptAt: at}, "now write the docs for the parser", "", false},
		{"a transcript without a time", facts("fix it", "", false), &state.Session{Prompt: "go on", PromptAt: at}, "go on", "fix it", false},
	} {
		got := withPromptSeen(tc.tf, tc.s)
		if got.LastPrompt != tc.last || got.PreviousPrompt != tc.previous || got.ErrorBeforeRequest != tc.errorBefore {
			t.Errorf("%s: %q, %q, error before %v; want %q, %q, %v", tc.name, got.LastPrompt, got.PreviousPrompt, got.ErrorBeforeRequest, tc.last, tc.previous, tc.errorBefore)
		}
		if got.LastPrompt != tc.tf.LastPrompt && got.LastPromptAt != at.Format(time.RFC3339Nano) {
			t.Errorf("%s: the request's time is %q", tc.name, got.LastPromptAt)
		}
	}
}

// Copilot CLI names a fresh session's start "new": it is a startup.
func TestCopilotsNewSessionIsAStartup(t *testing.T) {
	env := func(string) string { return "" }
	for source, want := range map[string]string{"new": "startup", "resume": "resume", "startup": "startup"} {
		in, _ := Copilot.ParseInput([]byte(`{"sessionId":"s","source":"`+source+`","prompt":"p","stop_hook_active":true}`), env)
		if in.Source != want || in.Prompt != "p" || !in.StopHookActive || in.SessionID != "s" {
			t.Errorf("source %q read as %+v", source, in)
		}
	}
}

// A compaction inside a run drops the start's block (seen: Copilot CLI's
// automatic compaction): the recovery at the next prompt of that run says
// the brief again; after a resumed start it does not.
func TestCopilotRecoveryInTheSameRunSaysTheBriefAgain(t *testing.T) {
	dir, home := project(t), t.TempDir()
	events := filepath.Join(home, "session-state", "s1", "events.jsonl")
	os.MkdirAll(filepath.Dir(events), 0o700)
	os.WriteFile(events, []byte(`{"type":"user.message","timestamp":"2026-01-01T00:00:00Z","data":{"content":"fix the lexer"}}`+"\n"), 0o600)
	const heading = "what GitHub Copilot CLI does not say of it"
	copilotRun(t, dir, home, "init", `,"source":"new"`)
	copilotRun(t, dir, home, "init --compact-recovery", `,"prompt":"fix the lexer"`)
	time.Sleep(10 * time.Millisecond) // the snapshot after the start, as the compaction is
	copilotRun(t, dir, home, "pre-compact", `,"transcriptPath":"`+events+`","trigger":"auto"`)
	out := copilotRun(t, dir, home, "init --compact-recovery", `,"prompt":"go on"`)
	if !strings.Contains(out, "Pre-Compaction Context") || !strings.Contains(out, heading) {
		t.Errorf("the recovery in the run the compaction happened in lacks the brief its start gave:\n%s", out)
	}
}
