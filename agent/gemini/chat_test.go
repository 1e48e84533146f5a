package gemini

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/transcript"
)

// The recorded session: a SessionStart hook's context that Gemini CLI
// prepended to the request, the request, an answer.
func TestReadTheRecordedChat(t *testing.T) {
	c, err := Read(context.Background(), "../../testdata/gemini-0.61.0/chat.jsonl", transcript.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if c.LastPrompt != "fix the parser so that the tests pass" {
		t.Errorf("last request %q: the hook's context and the session context are not the user's", c.LastPrompt)
	}
	if !reflect.DeepEqual(c.Texts, []string{"I will look at the parser."}) || !c.Usage.Known || c.Usage.Tokens != 100 || c.Compressed {
		t.Errorf("texts %q, usage %+v, compressed %v", c.Texts, c.Usage, c.Compressed)
	}
}

func chatFile(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "chat.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	return path
}

// A message re-emitted under its id replaces the earlier one; a $set of
// the messages (a compression) replaces them all, and its snapshot is not
// a request.
func TestTheLastVersionOfAMessageWinsAndACompressionRewritesThemAll(t *testing.T) {
	path := chatFile(t,
		`{"sessionId":"s","kind":"main"}`,
		`{"id":"u1","type":"user","content":[{"text":"fix the lexer"}]}`,
		`{"id":"g1","type":"gemini","content":"draft","tokens":{"input":50,"output":1}}`,
		`{"id":"g1","type":"gemini","content":"final answer","tokens":{"input":60,"output":2},"toolCalls":[{"name":"write_file","status":"success","args":{"file_path":"/p/a.go"}}]}`,
	)
	c, err := Read(context.Background(), path, transcript.DefaultOptions)
	if err != nil || !reflect.DeepEqual(c.Texts, []string{"final answer"}) || c.Usage.Tokens != 60 || !reflect.DeepEqual(c.FilesTouched, []string{"/p/a.go"}) {
		t.Fatalf("texts %q, usage %+v, files %q, %v", c.Texts, c.Usage, c.FilesTouched, err)
	}
	path = chatFile(t,
		`{"id":"u1","type":"user","content":[{"text":"fix the lexer"}]}`,
		`{"id":"g1","type":"gemini","content":"on it","toolCalls":[{"name":"run_shell_command","status":"error","args":{"command":"go test"},"result":[{"functionResponse":{"response":{"output":"FAIL"}}}]}]}`,
		`{"$set":{"messages":[{"id":"s1","type":"user","content":[{"text":"<state_snapshot>the lexer</state_snapshot>"}]},{"id":"g2","type":"gemini","content":"Got it."}]}}`,
	)
	c, err = Read(context.Background(), path, transcript.DefaultOptions)
	if err != nil || !c.Compressed || c.Compaction != "s1" || c.LastPrompt != "" || len(c.Texts) != 0 || c.OpenError != nil {
		t.Errorf("compressed %v (%q), request %q, texts %q (the acknowledgement after the summary is Gemini CLI's), error %+v, %v",
			c.Compressed, c.Compaction, c.LastPrompt, c.Texts, c.OpenError, err)
	}
}

// The recorded compression: a session resumed, whose shell call reported a
// prompt past the threshold, so that Gemini CLI summarised the first turn
// before its next request. The request kept verbatim is still the last
// one; the compression is named by its summary's message, and the same
// name comes back from the same chat.
func TestReadTheRecordedCompression(t *testing.T) {
	path := "../../testdata/gemini-0.61.0/compressed.jsonl"
	c, err := Read(context.Background(), path, transcript.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Compressed || c.Compaction == "" || c.LastPrompt != "fix the parser so that the tests pass" {
		t.Fatalf("compressed %v (%q), request %q", c.Compressed, c.Compaction, c.LastPrompt)
	}
	if !reflect.DeepEqual(c.Texts, []string{"The tests pass."}) {
		t.Errorf("texts %q: the canned acknowledgement and the summarised turn's answer are not the model's latest", c.Texts)
	}
	if e := c.OpenError; e == nil || e.Tool != "run_shell_command" || e.Input != "go test ./..." || !strings.HasPrefix(e.Error, "Exit code 1 ") || !strings.Contains(e.Error, "FAIL") {
		t.Errorf("open error %+v: the shell call exited 1, which Gemini CLI records as a success", e)
	}
	again, _ := Read(context.Background(), path, transcript.DefaultOptions)
	if again.Compaction != c.Compaction {
		t.Errorf("the same compression was named %q, then %q", c.Compaction, again.Compaction)
	}
}

// A chat whose summary has no id names the compression by its text, so two
// summaries are two compressions.
func TestACompressionWithoutIDIsNamedByItsSummary(t *testing.T) {
	read := func(summary string) string {
		c, err := Read(context.Background(), chatFile(t, `{"$set":{"messages":[{"type":"user","content":[{"text":"<state_snapshot>`+summary+`</state_snapshot>"}]}]}}`), transcript.DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		return c.Compaction
	}
	if a, b := read("one"), read("two"); a == "" || a == b || a != read("one") {
		t.Errorf("names %q and %q", a, b)
	}
}

func TestAFailedCallIsTheOpenError(t *testing.T) {
	path := chatFile(t,
		`{"id":"u1","type":"user","content":[{"text":"fix the lexer"}]}`,
		`{"id":"g1","type":"gemini","content":"on it","toolCalls":[{"name":"run_shell_command","status":"error","args":{"command":"go test"}}]}`,
	)
	c, err := Read(context.Background(), path, transcript.DefaultOptions)
	if err != nil || c.OpenError == nil || c.OpenError.Tool != "run_shell_command" || c.OpenError.Input != "go test" {
		t.Errorf("open error %+v, %v", c.OpenError, err)
	}
}

// The files listed are bounded as Claude Code's reader bounds them: the
// newest MaxFiles.
func TestTheFilesListedAreTheNewestMaxFiles(t *testing.T) {
	var ls []string
	for i := range transcript.MaxFiles + 1 {
		ls = append(ls, fmt.Sprintf(`{"id":"g%d","type":"gemini","content":"x","toolCalls":[{"name":"write_file","status":"success","args":{"file_path":"/p/%d.go"}}]}`, i, i))
	}
	c, err := Read(context.Background(), chatFile(t, ls...), transcript.DefaultOptions)
	if err != nil || len(c.FilesTouched) != transcript.MaxFiles || c.FilesTouched[0] != "/p/1.go" {
		t.Errorf("%d files, the first %q, %v", len(c.FilesTouched), c.FilesTouched[0], err)
	}
}

func gem(id, text string) string {
	return fmt.Sprintf(`{"id":"%s","type":"gemini","content":"%s","tokens":{"input":0,"output":1}}`, id, text)
}

// The newest three answers, the newest kept longest; a chat read whole from
// its first line, or from the middle at its next whole line; lines over
// the limit skipped; a prompt count of zero is no count.
func TestTheChatsLimits(t *testing.T) {
	long := strings.Repeat("word ", transcript.ExcerptRunes/5+50)
	c, err := Read(context.Background(), chatFile(t, `{"id":"u","type":"user","content":[{"text":"first line"}]}`,
		gem("a", "one"), gem("b", long), gem("c", "three"), gem("d", long)), transcript.DefaultOptions)
	if err != nil || len(c.Texts) != 3 || c.LastPrompt != "first line" || c.Usage.Known {
		t.Fatalf("texts %d, request %q, usage %+v, %v", len(c.Texts), c.LastPrompt, c.Usage, err)
	}
	if len([]rune(c.Texts[0])) > transcript.ExcerptRunes+5 || len([]rune(c.Texts[2])) <= transcript.ExcerptRunes+5 {
		t.Errorf("older %d runes, newest %d", len([]rune(c.Texts[0])), len([]rune(c.Texts[2])))
	}
	big := `{"id":"u","type":"user","content":[{"text":"` + strings.Repeat("x", 3000) + `"}]}`
	path := chatFile(t, big, `{"id":"v","type":"user","content":[{"text":"second"}]}`, big)
	c, err = Read(context.Background(), path, transcript.Options{Budget: 1 << 20, MaxLine: 1000})
	if err != nil || c.LastPrompt != "second" {
		t.Errorf("a line over the limit was read: %q, %v", c.LastPrompt, err)
	}
	c, err = Read(context.Background(), chatFile(t, strings.Repeat("y", 5000), `{"id":"v","type":"user","content":[{"text":"second"}]}`),
		transcript.Options{Budget: 1000, MaxLine: 1 << 20})
	if err != nil || c.LastPrompt != "second" {
		t.Errorf("read from the middle: %q, %v", c.LastPrompt, err)
	}
}

func TestHookContextIsNotTheUsersAndReplaceWritesAFile(t *testing.T) {
	for in, want := range map[string]string{"<hook_context>x</hook_context>\n\nfix it": "fix it", "fix it <hook_context>torn": "fix it",
		"<session_context>x</session_context>": "",
		// A held stop's reason, which Gemini CLI sends back as the next request.
		"Before you stop (long-running agent checks):\n- commit": "", "Before you stop, I said": "Before you stop, I said"} {
		if got := request(in); got != want {
			t.Errorf("request(%q) = %q, want %q", in, got, want)
		}
	}
	c, _ := Read(context.Background(), chatFile(t, `{"id":"g","type":"gemini","content":"x","toolCalls":[{"name":"replace","status":"success","args":{"file_path":"/p/a.go"}}]}`), transcript.DefaultOptions)
	if len(c.FilesTouched) != 1 {
		t.Errorf("files %q", c.FilesTouched)
	}
}

// A shell call is a failure when its output says a non-zero exit code,
// whatever its status; a zero one, or a call of another tool, is not.
func TestAShellCallsExitCodeDecidesTheOpenError(t *testing.T) {
	call := func(name, output string) string {
		return `{"id":"g","type":"gemini","content":"","toolCalls":[{"name":"` + name + `","status":"success","args":{"command":"make"},"result":[{"functionResponse":{"response":{"output":` + fmt.Sprintf("%q", output) + `}}}]}]}`
	}
	for _, tc := range []struct {
		name, output, want string
	}{
		{"run_shell_command", "<untrusted_context>\nOutput: boom\nExit Code: 2\nProcess Group PGID: 7\n</untrusted_context>", "Exit code 2 boom"},
		{"run_shell_command", "Output: fine\nExit Code: 0\n", ""},
		{"run_shell_command", "Output: fine\n", ""},
		{"read_file", "Exit Code: 3\n", ""},
	} {
		c, err := Read(context.Background(), chatFile(t, call(tc.name, tc.output)), transcript.DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if c.OpenError != nil {
			got = c.OpenError.Error
		}
		if got != tc.want {
			t.Errorf("%s %q: open error %q, want %q", tc.name, tc.output, got, tc.want)
		}
	}
}

// A line of exactly the limit (its newline counted) is read; one byte more
// is skipped.
func TestALineOfTheLimitIsRead(t *testing.T) {
	line := `{"id":"v","type":"user","content":[{"text":"exact"}]}`
	path := chatFile(t, line)
	for limit, want := range map[int]string{len(line) + 1: "exact", len(line): ""} {
		c, err := Read(context.Background(), path, transcript.Options{Budget: 1 << 20, MaxLine: limit})
		if err != nil || c.LastPrompt != want {
			t.Errorf("limit %d: request %q, want %q (%v)", limit, c.LastPrompt, want, err)
		}
	}
}

// A reply that reports no input tokens says nothing of the context: the
// latest count that was reported stands.
func TestAReplyWithoutInputTokensKeepsTheLastCount(t *testing.T) {
	c, err := Read(context.Background(), chatFile(t,
		`{"id":"g1","type":"gemini","content":"a","tokens":{"input":60,"output":2}}`,
		`{"id":"g2","type":"gemini","content":"b","tokens":{"input":0,"output":0}}`), transcript.DefaultOptions)
	if err != nil || !c.Usage.Known || c.Usage.Tokens != 60 {
		t.Errorf("usage %+v, %v", c.Usage, err)
	}
}

func TestACommandsOwnOutputNeverOpensAnError(t *testing.T) {
	call := func(output, display string) string {
		return `{"id":"g","type":"gemini","content":"","toolCalls":[{"name":"run_shell_command","status":"success","args":{"command":"cat notes"},"result":[{"functionResponse":{"response":{"output":` +
			fmt.Sprintf("%q", output) + `}}}],"resultDisplay":` + fmt.Sprintf("%q", display) + `}]}`
	}
	for name, tc := range map[string]struct{ output, display, want string }{
		"a success printing an exit line, kept apart": {"<untrusted_context>\nOutput: done\nExit Code: 1\nProcess Group PGID: 7\n</untrusted_context>", "done\nExit Code: 1", ""},
		"the same, the output first in the record":    {"Output: done\nExit Code: 1\nProcess Group PGID: 7", "done\nExit Code: 1", ""},
		"a success printing an exit line mid-output":  {"Output: Exit Code: 1\nall good\nProcess Group PGID: 7\n", "", ""},
		"a success printing an exit line of its own":  {"Output: building\nExit Code: 1\nall good\nProcess Group PGID: 7\n", "", ""},
		"the same, the output kept apart":             {"Output: building\nExit Code: 1\nall good\nExit Code: 0\nProcess Group PGID: 7", "building\nExit Code: 1\nall good", ""},
		"a failure printing another exit line":        {"Output: Exit Code: 0\nboom\nExit Code: 2\nProcess Group PGID: 7\n", "Exit Code: 0\nboom", "Exit code 2 Exit Code: 0 boom"},
	} {
		c, err := Read(context.Background(), chatFile(t, call(tc.output, tc.display)), transcript.DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if c.OpenError != nil {
			got = c.OpenError.Error
		}
		if got != tc.want {
			t.Errorf("%s: open error %q, want %q", name, got, tc.want)
		}
	}
}

// Before the chat record, Gemini CLI kept a session as one JSON document
// (written here in its shape): read as the record is, pretty-printed or
// on one line; a file that is neither says so.
func TestTheOlderSessionDocumentIsRead(t *testing.T) {
	doc := map[string]any{"sessionId": "s", "projectHash": "h", "kind": "main", "messages": []any{
		map[string]any{"id": "1", "type": "user", "content": []any{map[string]any{"text": "update the readme"}}},
		map[string]any{"id": "2", "type": "gemini", "content": "Writing it.", "toolCalls": []any{
			map[string]any{"id": "w", "name": "write_file", "args": map[string]any{"file_path": "/p/README.md"}, "status": "success"},
			map[string]any{"id": "t", "name": "write_todos", "status": "success", "timestamp": "t9",
				"args": map[string]any{"todos": []any{map[string]any{"description": "Update the readme", "status": "in_progress"}}}},
			map[string]any{"id": "l", "name": "list_directory", "args": map[string]any{"dir_path": ".."}, "status": "error",
				"result": []any{map[string]any{"functionResponse": map[string]any{"response": map[string]any{"error": "Path not in workspace"}}}}},
		}},
		map[string]any{"id": "3", "type": "user", "content": []any{map[string]any{"text": "why?"}}},
	}}
	pretty, _ := json.MarshalIndent(doc, "", "  ")
	flat, _ := json.Marshal(doc)
	for name, b := range map[string][]byte{"pretty-printed": pretty, "on one line": flat} {
		path := filepath.Join(t.TempDir(), "session-1.json")
		os.WriteFile(path, b, 0o600)
		c, err := Read(context.Background(), path, transcript.DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		if c.LastPrompt != "why?" || !reflect.DeepEqual(c.FilesTouched, []string{"/p/README.md"}) {
			t.Errorf("%s: request %q, files %q", name, c.LastPrompt, c.FilesTouched)
		}
		if want := []transcript.Todo{{Content: "Update the readme", Status: "in_progress"}}; !reflect.DeepEqual(c.Todos, want) || c.TasksChangedAt != "t9" {
			t.Errorf("%s: todos %+v at %q", name, c.Todos, c.TasksChangedAt)
		}
		if e := c.OpenError; e == nil || e.Tool != "list_directory" || e.Error != "Path not in workspace" || !c.ErrorBeforeRequest {
			t.Errorf("%s: the open error %+v, before the request %v", name, e, c.ErrorBeforeRequest)
		}
	}
	path := filepath.Join(t.TempDir(), "session-2.json")
	os.WriteFile(path, []byte("{\n  \"not\": \"a session\"\n}\n"), 0o600)
	if c, err := Read(context.Background(), path, transcript.DefaultOptions); err != nil || len(c.Notes) != 1 || !strings.Contains(c.Notes[0], "nothing was read") {
		t.Errorf("a document that is no session: %+v, %v", c, err)
	}
}

// A session document is read whole only within the budget: one of
// exactly the budget is read, one byte more is said not read.
func TestASessionDocumentIsReadWithinTheBudget(t *testing.T) {
	doc := []byte("{\n  \"messages\": [{\"id\": \"1\", \"type\": \"user\", \"content\": [{\"text\": \"update the readme\"}]}]\n}\n")
	path := filepath.Join(t.TempDir(), "session-1.json")
	os.WriteFile(path, doc, 0o600)
	for budget, read := range map[int64]bool{int64(len(doc)): true, int64(len(doc)) - 1: false} {
		c, err := Read(context.Background(), path, transcript.Options{Budget: budget, MaxLine: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		if got := c.LastPrompt == "update the readme"; got != read || read == (len(c.Notes) == 1) {
			t.Errorf("a budget of %d for %d bytes: read %v, notes %q", budget, len(doc), got, c.Notes)
		}
	}
}

// After "go on" and "what next?", the request that set the work is kept.
func TestTerseRequestsKeepTheOneThatSetTheWork(t *testing.T) {
	c, err := Read(context.Background(), chatFile(t, `{"id":"u1","type":"user","content":[{"text":"Rename the lexer package to scanner and fix its tests"}]}`,
		`{"id":"u2","type":"user","content":[{"text":"go on"}]}`, `{"id":"u3","type":"user","content":[{"text":"what next?"}]}`), transcript.DefaultOptions)
	if err != nil || c.LastPrompt != "what next?" || c.PreviousPrompt != "Rename the lexer package to scanner and fix its tests" {
		t.Errorf("request %q, before it %q, %v", c.LastPrompt, c.PreviousPrompt, err)
	}
}
