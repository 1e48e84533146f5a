package hooks

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/hooks/state"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/events"
)

// geminiRun runs one hook as Gemini CLI runs it, and returns the context
// the model would get ("" for no reply).
func geminiRun(t *testing.T, dir, chat, event string, row eventtable.Event) string {
	t.Helper()
	var out strings.Builder
	Execute(payload(dir, event, `,"transcript_path":"`+chat+`"`), &out, row,
		Options{Deadline: 5 * time.Second, Now: time.Now, Agent: Gemini, Getenv: func(string) string { return "" }})
	if out.Len() == 0 {
		return ""
	}
	var reply struct {
		Specific struct {
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out.String()), &reply); err != nil {
		t.Fatalf("%s printed no JSON reply (%v): %s", row.Command, err, out.String())
	}
	return reply.Specific.Context
}

const (
	chatBefore = `{"sessionId":"s1","kind":"main"}
{"id":"u1","type":"user","content":[{"text":"fix the lexer"}]}
{"id":"g1","type":"gemini","content":"Writing it.","toolCalls":[{"id":"c1","name":"write_file","status":"success","args":{"file_path":"lexer.go"}}]}
`
	compression = `{"$set":{"messages":[{"id":"sum1","type":"user","content":[{"text":"<state_snapshot>the lexer</state_snapshot>"}]},{"id":"ack","type":"gemini","content":"Got it. Thanks for the additional context!"}]}}
`
)

// Gemini CLI runs PreCompress before every request and has no event after
// a compression: pre-compact snapshots a chat only when it changed, keeps
// the snapshot taken before a compression until its recovery is given,
// and the recovery rides the first prompt after it (BeforeAgent), once.
func TestGeminiRecoveryRidesTheFirstPromptAfterACompressionOnce(t *testing.T) {
	dir := project(t)
	chat := filepath.Join(t.TempDir(), "chat.jsonl")
	os.WriteFile(chat, []byte(chatBefore), 0o600)
	snapshot := filepath.Join(dir, ".claude", "logs", logs.SessionFile("s1", logs.SnapshotLog))
	preCompact, recovery := rowOf(t, "pre-compact"), eventtable.Table[1]

	if out := geminiRun(t, dir, chat, "PreCompress", preCompact); out != "" {
		t.Errorf("PreCompress printed %q: Gemini CLI shows it to the person only", out)
	}
	if b, err := os.ReadFile(snapshot); err != nil || !strings.Contains(string(b), "fix the lexer") {
		t.Fatalf("no snapshot of the request (%v):\n%s", err, b)
	}
	if out := geminiRun(t, dir, chat, "BeforeAgent", recovery); out != "" {
		t.Errorf("a prompt with no compression before it got %q", out)
	}

	// The chat has not changed: the next request's PreCompress does nothing.
	os.Remove(snapshot)
	geminiRun(t, dir, chat, "PreCompress", preCompact)
	if _, err := os.Stat(snapshot); err == nil {
		t.Errorf("an unchanged chat was snapshot again")
	}
	os.WriteFile(chat, []byte(chatBefore+`{"id":"g2","type":"gemini","content":"Still writing."}`+"\n"), 0o600)
	geminiRun(t, dir, chat, "PreCompress", preCompact)
	if _, err := os.Stat(snapshot); err != nil {
		t.Fatalf("a changed chat was not snapshot: %v", err)
	}

	// The compression: the requests after it must not replace the
	// snapshot taken before it (it alone knows lexer.go was written).
	f, _ := os.OpenFile(chat, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(compression)
	f.Close()
	geminiRun(t, dir, chat, "PreCompress", preCompact)
	got := geminiRun(t, dir, chat, "BeforeAgent", recovery)
	for _, want := range []string{"Pre-Compaction Context", "fix the lexer", "lexer.go"} {
		if !strings.Contains(got, want) {
			t.Errorf("the first prompt after the compression got no %q:\n%s", want, got)
		}
	}
	if again := geminiRun(t, dir, chat, "BeforeAgent", recovery); again != "" {
		t.Errorf("the recovery was given twice:\n%s", again)
	}

	// Recovered: the snapshots go on from the compressed chat.
	os.WriteFile(chat, append(must(os.ReadFile(chat)), `{"id":"u2","type":"user","content":[{"text":"now the parser"}]}`+"\n"...), 0o600)
	geminiRun(t, dir, chat, "PreCompress", preCompact)
	if b, _ := os.ReadFile(snapshot); !strings.Contains(string(b), "now the parser") {
		t.Errorf("after the recovery, the snapshot is still the old one:\n%s", b)
	}

	// Six PreCompress runs, one compression: the summary counts one.
	all, err := events.Read(logs.DirFor(dir))
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := events.Summarize(all, "s1"); s.Compactions != 1 {
		t.Errorf("the summary counts %d compactions, want 1", s.Compactions)
	}
}

// A session that starts (a resume) on a chat compressed since its last
// recovery gets nothing at its start (Gemini CLI would put it before the
// prompt, and drop both from a later resume), and the recovery with the
// brief at its first prompt, once.
func TestGeminiStartAfterACompressionGivesTheRecoveryAtTheFirstPrompt(t *testing.T) {
	dir := project(t)
	chat := filepath.Join(t.TempDir(), "chat.jsonl")
	os.WriteFile(chat, []byte(chatBefore), 0o600)
	geminiRun(t, dir, chat, "PreCompress", rowOf(t, "pre-compact"))
	f, _ := os.OpenFile(chat, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(compression)
	f.Close()
	if start := geminiRun(t, dir, chat, "SessionStart", eventtable.Table[0]); start != "" {
		t.Errorf("the start printed:\n%s", start)
	}
	prompt := geminiRun(t, dir, chat, "BeforeAgent", eventtable.Table[1])
	if !strings.Contains(prompt, "Pre-Compaction Context") || !strings.Contains(prompt, "fix the lexer") || !strings.Contains(prompt, "what Gemini CLI does not say of it") {
		t.Errorf("the first prompt after a compression has no recovery with the brief:\n%s", prompt)
	}
	if out := geminiRun(t, dir, chat, "BeforeAgent", eventtable.Table[1]); out != "" {
		t.Errorf("the next prompt got the recovery again:\n%s", out)
	}
}

// A start's brief waits for the run's first prompt, with the start's
// source: a resume's says the session resumed; the prompts after it get
// nothing.
func TestGeminiStartsBriefComesWithTheFirstPrompt(t *testing.T) {
	dir := project(t)
	chat := filepath.Join(t.TempDir(), "chat.jsonl")
	os.WriteFile(chat, []byte(chatBefore), 0o600)
	if start := geminiRun(t, dir, chat, "SessionStart", eventtable.Table[0]); start != "" {
		t.Errorf("the start printed:\n%s", start)
	}
	if out := geminiRun(t, dir, chat, "BeforeAgent", eventtable.Table[1]); !strings.Contains(out, "what Gemini CLI does not say of it") {
		t.Errorf("the first prompt has no brief:\n%s", out)
	}
	if out := geminiRun(t, dir, chat, "BeforeAgent", eventtable.Table[1]); out != "" {
		t.Errorf("the second prompt got the brief again:\n%s", out)
	}
}

func TestKeepSnapshot(t *testing.T) {
	for _, tc := range []struct {
		name                                       string
		snapshotOf, snapCompaction, recovered, now string
		want                                       bool
	}{
		{"no compaction", "10@1", "", "", "", false},
		{"a compaction after the snapshot, not recovered", "10@1", "", "", "c1", true},
		{"the compaction recovered", "10@1", "", "c1", "c1", false},
		{"the snapshot taken after the compaction", "10@1", "c1", "", "c1", false},
		{"a second compaction after one recovered", "10@1", "c1", "c1", "c2", true},
		{"no snapshot yet", "", "", "", "c1", false},
	} {
		if got := keepSnapshot(tc.snapshotOf, tc.snapCompaction, tc.recovered, tc.now); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// A snapshot whose files could not be written is taken again at the next
// request, though the chat has not changed since.
func TestGeminiSnapshotNotWrittenIsTakenAgain(t *testing.T) {
	dir := project(t)
	chat := filepath.Join(t.TempDir(), "chat.jsonl")
	os.WriteFile(chat, []byte(chatBefore), 0o600)
	blocker := filepath.Join(dir, ".claude", "logs", "sessions", "s1")
	os.MkdirAll(filepath.Dir(blocker), 0o755)
	os.WriteFile(blocker, []byte("not a directory"), 0o644)
	geminiRun(t, dir, chat, "PreCompress", rowOf(t, "pre-compact"))
	os.Remove(blocker)
	geminiRun(t, dir, chat, "PreCompress", rowOf(t, "pre-compact"))
	if _, err := os.Stat(filepath.Join(dir, ".claude", "logs", logs.SessionFile("s1", logs.SnapshotLog))); err != nil {
		t.Errorf("the snapshot was not taken again: %v", err)
	}
}

// Gemini CLI runs PreCompress before every request: the snapshot does not
// wait for the chat to be still (Claude Code's PreCompact does, up to
// 300 ms), so a chat written to meanwhile is read as it stands, with no
// note that it was still being written.
func TestGeminiSnapshotDoesNotWaitForAStillChat(t *testing.T) {
	dir := project(t)
	chat := filepath.Join(t.TempDir(), "chat.jsonl")
	os.WriteFile(chat, []byte(chatBefore), 0o600)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		f, _ := os.OpenFile(chat, os.O_APPEND|os.O_WRONLY, 0)
		defer f.Close()
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				f.WriteString("\n")
			}
		}
	}()
	geminiRun(t, dir, chat, "PreCompress", rowOf(t, "pre-compact"))
	close(stop)
	<-done
	b, err := os.ReadFile(filepath.Join(dir, ".claude", "logs", logs.SessionFile("s1", logs.SnapshotLog)))
	if err != nil || strings.Contains(string(b), "still being written") {
		t.Errorf("%v:\n%s", err, b)
	}
}

// Qwen Code's PreCompact runs for a compaction only, and its chat
// recorder writes each line later than the event: the snapshot waits for
// the chat to be still (and says so when it never was), where Gemini's
// PreCompress, before every request, does not.
func TestQwenSnapshotWaitsForItsChat(t *testing.T) {
	dir := project(t)
	chat := filepath.Join(t.TempDir(), "chat.jsonl")
	os.WriteFile(chat, []byte(`{"type":"user","provenance":"real_user","message":{"role":"user","parts":[{"text":"write the notes"}]}}`+"\n"), 0o600)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		f, _ := os.OpenFile(chat, os.O_APPEND|os.O_WRONLY, 0)
		defer f.Close()
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				f.WriteString("\n")
			}
		}
	}()
	Execute(payload(dir, "PreCompact", `,"trigger":"auto","transcript_path":"`+chat+`"`), io.Discard, rowOf(t, "pre-compact"),
		Options{Deadline: 5 * time.Second, Now: time.Now, Agent: Qwen, Getenv: func(string) string { return "" }})
	close(stop)
	<-done
	b, err := os.ReadFile(filepath.Join(dir, ".claude", "logs", logs.SessionFile("s1", logs.SnapshotLog)))
	if err != nil || !strings.Contains(string(b), "still being written") {
		t.Errorf("the snapshot did not wait for the chat (%v):\n%s", err, b)
	}
}

// Gemini CLI retries a held AfterAgent with stop_hook_active, but the
// agent's tool calls then end in another AfterAgent without it: the stop
// hook holds a request's turn once, and the user's next request (even
// the same words) may be held again. The reason Gemini sends back as a
// request is not the user's.
func TestGeminiStopHoldsARequestsTurnOnce(t *testing.T) {
	dir := project(t)
	stop, prompt := rowOf(t, "stop"), eventtable.Table[1]
	afterAgent := func(extra string) string {
		var out strings.Builder
		Execute(payload(dir, "AfterAgent", `,"prompt":"go on","prompt_response":"done"`+extra), &out, stop,
			Options{Deadline: 5 * time.Second, Now: time.Now, Agent: Gemini, Getenv: func(string) string { return "" }})
		return out.String()
	}
	beforeAgent := func(p string) {
		b, _ := json.Marshal(p)
		Execute(payload(dir, "BeforeAgent", `,"prompt":`+string(b)), io.Discard, prompt,
			Options{Deadline: 5 * time.Second, Now: time.Now, Agent: Gemini, Getenv: func(string) string { return "" }})
	}
	held := func(out string) bool { return strings.Contains(out, `"decision":"block"`) }

	beforeAgent("go on")
	first := afterAgent("")
	if !held(first) {
		t.Fatalf("a dirty stop was not held: %q", first)
	}
	if out := afterAgent(`,"stop_hook_active":true`); held(out) {
		t.Errorf("the retry was held again: %q", out)
	}
	var reason struct{ Reason string }
	json.Unmarshal([]byte(first), &reason)
	beforeAgent(reason.Reason) // Gemini's continuation request: our reason
	if out := afterAgent(""); held(out) {
		t.Errorf("the stop after the retry's tool calls was held again: %q", out)
	}
	if s, _ := state.Load(logs.DirFor(dir), "s1"); s == nil || s.Prompt != "go on" {
		t.Errorf("the held stop's reason was taken for the request: %q", s.Prompt)
	}
	beforeAgent("go on") // the user's next request
	if out := afterAgent(""); !held(out) {
		t.Errorf("the next request's stop was not held: %q", out)
	}
}
