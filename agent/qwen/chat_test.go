package qwen

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/transcript"
)

const fixture = "../../testdata/qwen-0.24.4/chat.jsonl"

// upTo writes the recorded chat up to (not including) the first line
// holding marker, as the chat stood at that moment.
func upTo(t *testing.T, marker string) string {
	t.Helper()
	b, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, []byte(marker))
	if i < 0 {
		t.Fatalf("no %q in the fixture", marker)
	}
	path := filepath.Join(t.TempDir(), "chat.jsonl")
	os.WriteFile(path, b[:bytes.LastIndexByte(b[:i], '\n')+1], 0o600)
	return path
}

// Just before the compaction (the PreCompact hook's moment, mid-turn),
// the chat says what the person asked, the todo list as it stands, the
// file the agent wrote, the failed command, and the context in use.
func TestTheRecordedChatBeforeItsCompaction(t *testing.T) {
	f, err := Read(context.Background(), upTo(t, `"subtype":"chat_compression"`), transcript.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if f.LastPrompt != "write the notes and commit them" || f.PreviousPrompt != "" {
		t.Errorf("the request: %q (before it %q)", f.LastPrompt, f.PreviousPrompt)
	}
	want := []transcript.Todo{{Content: "Write notes.txt", Status: "in_progress"}, {Content: "Commit the notes", Status: "pending"}}
	if !slices.Equal(f.Todos, want) || f.TasksChangedAt == "" {
		t.Errorf("the todos: %+v at %q", f.Todos, f.TasksChangedAt)
	}
	if len(f.FilesTouched) != 1 || !strings.HasSuffix(f.FilesTouched[0], "/project/notes.txt") {
		t.Errorf("the files written: %q", f.FilesTouched)
	}
	if e := f.OpenError; e == nil || e.Tool != "run_shell_command" || e.Input != "false" || !strings.Contains(e.Error, "Exit Code: 1") || f.ErrorBeforeRequest {
		t.Errorf("the open error: %+v (before the request: %v)", e, f.ErrorBeforeRequest)
	}
	if len(f.Texts) == 0 || f.Texts[len(f.Texts)-1] != "I will write the notes first." {
		t.Errorf("the agent's latest text: %q", f.Texts)
	}
	// The reply that asked for the failing command reported the prompt
	// near the window that set the compaction off.
	if !f.Usage.Known || f.Usage.Tokens != 199000 || f.Usage.Model != "fake-model" {
		t.Errorf("the usage: %+v", f.Usage)
	}
}

// After the compaction and a terse "go on", the request that set the
// work comes with it; the files written before the compaction are the
// summary's now; the failure the person asked past is said to come
// before the request.
func TestTheRecordedChatAfterItsCompaction(t *testing.T) {
	f, err := Read(context.Background(), fixture, transcript.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if f.LastPrompt != "go on" || f.PreviousPrompt != "write the notes and commit them" {
		t.Errorf("the request: %q (before it %q)", f.LastPrompt, f.PreviousPrompt)
	}
	if len(f.FilesTouched) != 0 {
		t.Errorf("files written before the compaction listed after it: %q", f.FilesTouched)
	}
	if f.OpenError == nil || !f.ErrorBeforeRequest {
		t.Errorf("the failure before the request: %+v, before: %v", f.OpenError, f.ErrorBeforeRequest)
	}
	if !f.Usage.Known || f.Texts[len(f.Texts)-1] != "Going on." {
		t.Errorf("after the compaction: %+v %q", f.Usage, f.Texts)
	}
}

// Qwen Code's own user-role entries (a reminder, a summary's restoration)
// are never the request; a success after a failure closes it; a file
// written twice is listed once, at its latest place.
func TestOnlyWhatAPersonTypedIsTheRequestAndTheNewestResultDecides(t *testing.T) {
	lines := []string{
		`{"type":"user","provenance":"real_user","message":{"parts":[{"text":"fix the parser"}]}}`,
		`{"type":"user","provenance":"system_reminder","message":{"parts":[{"text":"<system-reminder>todo</system-reminder>"}]}}`,
		`{"type":"assistant","message":{"parts":[{"functionCall":{"id":"a","name":"write_file","args":{"file_path":"/p/a.go"}}}]}}`,
		`{"type":"tool_result","message":{"parts":[{"functionResponse":{"id":"a","name":"write_file","response":{"output":"ok"}}}]},"toolCallResult":{"status":"success","resultDisplay":{"filePath":"/p/a.go"}}}`,
		`{"type":"assistant","message":{"parts":[{"functionCall":{"id":"b","name":"run_shell_command","args":{"command":"go test"}}}]}}`,
		`{"type":"tool_result","message":{"parts":[{"functionResponse":{"id":"b","name":"run_shell_command","response":{"error":"Exit Code: 1"}}}]},"toolCallResult":{"status":"error"}}`,
		`{"type":"assistant","message":{"parts":[{"functionCall":{"id":"c","name":"edit","args":{"file_path":"/p/b.go"}}}]}}`,
		`{"type":"tool_result","message":{"parts":[{"functionResponse":{"id":"c","name":"edit","response":{"output":"ok"}}}]},"toolCallResult":{"status":"success","resultDisplay":{"filePath":"/p/b.go"}}}`,
		`{"type":"tool_result","message":{"parts":[{"functionResponse":{"id":"d","name":"write_file","response":{"output":"ok"}}}]},"toolCallResult":{"status":"success","resultDisplay":{"filePath":"/p/a.go"}}}`,
		`{"type":"tool_result","message":{"parts":[{"functionResponse":{"id":"e","name":"write_file","response":{"output":"denied"}}}]},"toolCallResult":{"status":"cancelled","resultDisplay":{"filePath":"/p/c.go"}}}`,
	}
	path := filepath.Join(t.TempDir(), "chat.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	f, err := Read(context.Background(), path, transcript.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if f.LastPrompt != "fix the parser" {
		t.Errorf("the request: %q", f.LastPrompt)
	}
	if f.OpenError != nil {
		t.Errorf("a failure followed by successes is open: %+v", f.OpenError)
	}
	if !slices.Equal(f.FilesTouched, []string{"/p/b.go", "/p/a.go"}) {
		t.Errorf("the files: %q", f.FilesTouched)
	}
}

// What the reader keeps is bounded: the three latest texts; usage only
// as a count a model reports (none past a billion, none of zero); the
// newest files, each once; a call's name where its start was not read.
func TestTheChatsBounds(t *testing.T) {
	var lines []string
	for i := range 5 {
		lines = append(lines, `{"type":"assistant","model":"m","message":{"parts":[{"text":"text `+string(rune('a'+i))+`"}]},"usageMetadata":{"promptTokenCount":`+[]string{"10", "20", "0", "1000000000", "-1"}[i]+`}}`)
	}
	for i := range transcript.MaxFiles + 2 {
		lines = append(lines, `{"type":"tool_result","message":{"parts":[{"functionResponse":{"id":"x","name":"write_file","response":{}}}]},"toolCallResult":{"status":"success","resultDisplay":{"filePath":"/p/f`+strconv.Itoa(i)+`.go"}}}`)
	}
	lines = append(lines, `{"type":"tool_result","message":{"parts":[{"functionResponse":{"id":"gone","name":"read_file","response":{"output":"no such file"}}}]},"toolCallResult":{"status":"error"}}`)
	path := filepath.Join(t.TempDir(), "chat.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	f, err := Read(context.Background(), path, transcript.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.Texts, []string{"text c", "text d", "text e"}) {
		t.Errorf("the texts: %q", f.Texts)
	}
	if !f.Usage.Known || f.Usage.Tokens != 20 {
		t.Errorf("the usage: %+v", f.Usage)
	}
	if n := len(f.FilesTouched); n != transcript.MaxFiles || f.FilesTouched[0] != "/p/f2.go" || f.FilesTouched[n-1] != "/p/f201.go" {
		t.Errorf("%d files, from %q to %q", n, f.FilesTouched[0], f.FilesTouched[n-1])
	}
	if e := f.OpenError; e == nil || e.Tool != "read_file" || e.Error != "no such file" {
		t.Errorf("a failure whose call was not read: %+v", e)
	}
}

// The newest text is kept longest, the two before it cut shorter.
func TestTheNewestTextIsKeptLongest(t *testing.T) {
	long := strings.Repeat("word ", transcript.ExcerptRunes/5+100)
	var lines []string
	for range 3 {
		lines = append(lines, `{"type":"assistant","message":{"parts":[{"text":"`+long+`"}]}}`)
	}
	path := filepath.Join(t.TempDir(), "chat.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	f, err := Read(context.Background(), path, transcript.DefaultOptions)
	if err != nil || len(f.Texts) != 3 {
		t.Fatal(err, len(f.Texts))
	}
	for i, text := range f.Texts {
		if longest := len([]rune(text)) > transcript.ExcerptRunes+5; longest != (i == 2) {
			t.Errorf("text %d: %d runes", i, len([]rune(text)))
		}
	}
}

// After "go on" and "what next?", the request that set the work is kept.
func TestTerseRequestsKeepTheOneThatSetTheWork(t *testing.T) {
	user := func(text string) string {
		return `{"type":"user","provenance":"real_user","message":{"role":"user","parts":[{"text":"` + text + `"}]}}`
	}
	path := filepath.Join(t.TempDir(), "chat.jsonl")
	os.WriteFile(path, []byte(user("Rename the lexer package to scanner and fix its tests")+"\n"+user("go on")+"\n"+user("what next?")+"\n"), 0o600)
	f, err := Read(context.Background(), path, transcript.DefaultOptions)
	if err != nil || f.LastPrompt != "what next?" || f.PreviousPrompt != "Rename the lexer package to scanner and fix its tests" {
		t.Errorf("request %q, before it %q, %v", f.LastPrompt, f.PreviousPrompt, err)
	}
}
