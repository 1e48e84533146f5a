package codex

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/transcript"
)

const fixture = "../../testdata/codex-0.169.0/rollout-compact.jsonl"

// The recorded session: a request, a command that exits 3, a second that
// exits 1, an automatic compaction, a last answer.
func TestReadTheRecordedRollout(t *testing.T) {
	r, err := Read(context.Background(), fixture, transcript.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if r.LastPrompt != "fix the parser so that the tests pass" {
		t.Errorf("last request %q: the environment context is not a request", r.LastPrompt)
	}
	want := []string{"I will run the tests.", "The parser test fails; writing notes.", "Notes written; the parser still fails."}
	if !reflect.DeepEqual(r.Texts, want) {
		t.Errorf("texts %q: the compaction's summary is not the agent's", r.Texts)
	}
	e := r.OpenError
	if e == nil || e.Tool != "exec_command" || e.Input != "echo hi > notes.txt" || !strings.HasPrefix(e.Error, "Exit code 1 ") {
		t.Errorf("open error %+v", e)
	}
	if !r.Usage.Known || r.Usage.Tokens != 9000 || r.Usage.Window != 258400 || r.Usage.Model != "gpt-5" {
		t.Errorf("usage %+v, window %d", r.Usage, r.Usage.Window)
	}
}

func lines(t *testing.T, ls ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rollout.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(ls, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

const (
	request   = `{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"rename the lexer"}]}}`
	patched   = `{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"FileChange","status":"completed","changes":{"/p/a.go":{"type":"update"},"/p/b.go":{"type":"add"}}}}}`
	patchedA  = `{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"FileChange","status":"completed","changes":{"/p/a.go":{"type":"update"}}}}}`
	called    = `{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"go test\"}","call_id":"c1"}}`
	failed    = `{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"Chunk ID: 1\nProcess exited with code 2\nOutput:\nFAIL"}}`
	succeeded = `{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"Chunk ID: 2\nProcess exited with code 0\nOutput:\nok"}}`
	compacted = `{"type":"compacted","payload":{"message":"summary"}}`
)

func TestFilesAreThoseChangedSinceTheCompactionInTheOrderOfTheirLastChange(t *testing.T) {
	r, err := Read(context.Background(), lines(t, patched, compacted, patched, patchedA), transcript.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"/p/b.go", "/p/a.go"}; !reflect.DeepEqual(r.FilesTouched, want) {
		t.Errorf("files %q, want %q", r.FilesTouched, want)
	}
}

// An error stays open until a success follows it: a request after it
// does not close it, but is said to come after it (the handoff then
// leaves it out, as for Claude Code).
func TestAnErrorIsOpenUntilASuccessAndSaysWhenARequestCameAfter(t *testing.T) {
	for _, tt := range []struct {
		name          string
		lines         []string
		open, earlier bool
	}{
		{"the newest result failed", []string{request, called, failed}, true, false},
		{"a command succeeded since", []string{request, called, failed, succeeded}, false, false},
		{"the user asked something since", []string{called, failed, request}, true, true},
		{"it failed again after the request", []string{called, failed, request, called, failed}, true, false},
	} {
		r, err := Read(context.Background(), lines(t, tt.lines...), transcript.DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		if (r.OpenError != nil) != tt.open || r.ErrorBeforeRequest != tt.earlier {
			t.Errorf("%s: open error %+v, before the request %v", tt.name, r.OpenError, r.ErrorBeforeRequest)
		}
		if e := r.OpenError; e != nil && (e.Tool != "exec_command" || e.Input != "go test" || e.Error != "Exit code 2 FAIL") {
			t.Errorf("%s: open error %+v", tt.name, e)
		}
	}
}

// A rollout read from the middle (past the budget) starts at the next
// whole line and says so; a torn last line is not read.
func TestReadFromTheMiddleStartsAtAWholeLine(t *testing.T) {
	path := lines(t, strings.Repeat("x", 5000), request, `{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"torn`)
	r, err := Read(context.Background(), path, transcript.Options{Budget: 1000, MaxLine: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if r.LastPrompt != "rename the lexer" || len(r.Notes) != 1 {
		t.Errorf("last request %q, notes %q", r.LastPrompt, r.Notes)
	}
}

// A rollout read whole starts at its first line and says nothing of a cut.
func TestASmallRolloutIsReadFromItsFirstLine(t *testing.T) {
	r, err := Read(context.Background(), lines(t, request), transcript.DefaultOptions)
	if err != nil || r.LastPrompt != "rename the lexer" || len(r.Notes) != 0 {
		t.Errorf("last request %q, notes %q, %v", r.LastPrompt, r.Notes, err)
	}
}

// A line over the limit is skipped and counted; the lines after it are
// still read.
func TestAnOversizedLineIsSkippedNotTheRest(t *testing.T) {
	big := `{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"` + strings.Repeat("x", 3000) + `"}]}}`
	r, err := Read(context.Background(), lines(t, big, request), transcript.Options{Budget: 1 << 20, MaxLine: 1000})
	if err != nil || r.LastPrompt != "rename the lexer" || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "1 rollout line(s) over") {
		t.Errorf("last request %q, notes %q, %v", r.LastPrompt, r.Notes, err)
	}
}

// Right after a compaction the context in use is unknown until a reply
// reports it: Codex's own estimate of zero input tokens is not a count.
func TestUsageIsUnknownAfterACompactionUntilAReply(t *testing.T) {
	usage := func(in int) string {
		return `{"type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{"input_tokens":` + strconv.Itoa(in) +
			`,"output_tokens":5},"model_context_window":258400}}}`
	}
	r, err := Read(context.Background(), lines(t, usage(9000), compacted, usage(0)), transcript.DefaultOptions)
	if err != nil || r.Usage.Known {
		t.Errorf("usage %+v, %v", r.Usage, err)
	}
	r, _ = Read(context.Background(), lines(t, usage(9000), compacted, usage(0), usage(1200)), transcript.DefaultOptions)
	if !r.Usage.Known || r.Usage.Tokens != 1200 || r.Usage.Output != 5 {
		t.Errorf("usage %+v", r.Usage)
	}
}

// The failed call is named as the model called it.
func TestAFailedCallIsNamedAsCalled(t *testing.T) {
	call := `{"type":"response_item","payload":{"type":"function_call","name":"write_stdin","arguments":"{\"chars\":\"q\"}","call_id":"w1"}}`
	out := `{"type":"response_item","payload":{"type":"function_call_output","call_id":"w1","output":"Process exited with code 130\nOutput:\n^C"}}`
	r, err := Read(context.Background(), lines(t, call, out), transcript.DefaultOptions)
	if err != nil || r.OpenError == nil || r.OpenError.Tool != "write_stdin" || r.OpenError.Input != `{"chars":"q"}` {
		t.Errorf("open error %+v, %v", r.OpenError, err)
	}
}

// The agent's newest message is kept longer than the two before it.
func TestTheNewestMessageIsKeptLongest(t *testing.T) {
	say := func(text string) string {
		return `{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"` + text + `"}]}}`
	}
	long := strings.Repeat("word ", transcript.ExcerptRunes/5+50)
	r, err := Read(context.Background(), lines(t, say(long), say(long)), transcript.DefaultOptions)
	if err != nil || len(r.Texts) != 2 {
		t.Fatalf("texts %q, %v", r.Texts, err)
	}
	if len([]rune(r.Texts[0])) > transcript.ExcerptRunes+5 || len([]rune(r.Texts[1])) <= transcript.ExcerptRunes+5 {
		t.Errorf("older %d runes, newest %d", len([]rune(r.Texts[0])), len([]rune(r.Texts[1])))
	}
}

// The files listed are bounded as Claude Code's reader bounds them: the
// newest MaxFiles.
func TestTheFilesListedAreTheNewestMaxFiles(t *testing.T) {
	var ls []string
	for i := range transcript.MaxFiles + 1 {
		ls = append(ls, `{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"FileChange","status":"completed","changes":{"/p/`+strconv.Itoa(i)+`.go":{}}}}}`)
	}
	r, err := Read(context.Background(), lines(t, ls...), transcript.DefaultOptions)
	if err != nil || len(r.FilesTouched) != transcript.MaxFiles || r.FilesTouched[0] != "/p/1.go" {
		t.Errorf("%d files, the first %q, %v", len(r.FilesTouched), r.FilesTouched[0], err)
	}
}

func TestACommandsOwnOutputNeverOpensAnError(t *testing.T) {
	for name, out := range map[string]string{
		"a successful command printing an exit line": `Chunk ID: 3\nProcess exited with code 0\nOutput:\nProcess exited with code 1\nok`,
		"a running command printing an exit line":    `Chunk ID: 4\nProcess running with session ID 7\nOutput:\nProcess exited with code 1`,
		"a patch whose text holds an exit line":      `Success. Updated the following files:\nM notes.md\nOutput:\nProcess exited with code 9`,
	} {
		result := `{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"` + out + `"}}`
		r, err := Read(context.Background(), lines(t, request, called, result), transcript.DefaultOptions)
		if err != nil || r.OpenError != nil {
			t.Errorf("%s: open error %+v, %v", name, r.OpenError, err)
		}
	}
}

// Codex writes its context blocks as user messages: <environment_context>
// after the user's request is no request of the user's.
func TestCodexsOwnContextIsNotTheUsersRequest(t *testing.T) {
	env := `{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/p</cwd>\n</environment_context>"}]}}`
	instructions := `{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<user_instructions>\nbe brief\n</user_instructions>"}]}}`
	r, err := Read(context.Background(), lines(t, request, env, instructions), transcript.DefaultOptions)
	if err != nil || r.LastPrompt != "rename the lexer" {
		t.Errorf("the request read: %q (%v)", r.LastPrompt, err)
	}
}

// The shapes Codex 0.118–0.147 write (lines written by us, in the shapes
// of real rollouts): the plan of the newest update_plan; the files of
// patch_apply_end and of apply_patch's own report; the failures of
// shell_command ("Exit code: N"), of a patch that did not apply, of a
// write to a finished session; the request Codex Desktop wraps, without
// the marker of an attached image; Codex's own user-role messages.
func TestTheShapesOfOlderCodexVersions(t *testing.T) {
	const (
		plan    = `{"timestamp":"t1","type":"response_item","payload":{"type":"function_call","name":"update_plan","arguments":"{\"plan\":[{\"step\":\"Read the lexer\",\"status\":\"completed\"},{\"step\":\"Rename it\",\"status\":\"in_progress\"}]}","call_id":"p1"}}`
		planned = `{"type":"response_item","payload":{"type":"function_call_output","call_id":"p1","output":"Plan updated"}}`
		applied = `{"type":"event_msg","payload":{"type":"patch_apply_end","call_id":"a1","success":true,"changes":{"/p/lexer.go":{"type":"update"}}}}`
		refused = `{"type":"event_msg","payload":{"type":"patch_apply_end","call_id":"a2","success":false,"changes":{"/p/no.go":{"type":"update"}}}}`
		patch   = `{"type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch","call_id":"a3"}}`
		report  = `{"type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"a3","output":"{\"output\":\"Success. Updated the following files:\\nA /p/new.go\\nM /p/lexer.go\\n\",\"metadata\":{\"exit_code\":0}}"}}`
		shell   = `{"type":"response_item","payload":{"type":"function_call","name":"shell_command","arguments":"{\"command\":\"go vet\"}","call_id":"s1"}}`
		exit1   = `{"type":"response_item","payload":{"type":"function_call_output","call_id":"s1","output":"Exit code: 1\nWall time: 0.1 seconds\nOutput:\nvet: bad"}}`
		badFix  = `{"type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"a3","output":"apply_patch verification failed: Failed to find expected lines in /p/lexer.go"}}`
		stdin   = `{"type":"response_item","payload":{"type":"function_call_output","call_id":"w1","output":"write_stdin failed: Unknown process id 7"}}`
		wrapped = `{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"\n# Files mentioned by the user:\n\n## shot.png: /tmp/shot.png\n\n## My request for Codex:\nmake it look like the picture\n"},{"type":"input_text","text":"<image name=[Image #1]>"},{"type":"input_text","text":"</image>"}]}}`
		skill   = `{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<skill>\n<name>review</name>\n</skill>"}]}}`
	)
	r, err := Read(context.Background(), lines(t, request, plan, planned, applied, refused, patch, report, shell, exit1), transcript.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if want := []transcript.Todo{{Content: "Read the lexer", Status: "completed"}, {Content: "Rename it", Status: "in_progress"}}; !reflect.DeepEqual(r.Todos, want) || r.TasksChangedAt != "t1" {
		t.Errorf("the plan %+v at %q", r.Todos, r.TasksChangedAt)
	}
	if want := []string{"/p/new.go", "/p/lexer.go"}; !reflect.DeepEqual(r.FilesTouched, want) {
		t.Errorf("files %q, want %q (a patch that failed to apply wrote nothing)", r.FilesTouched, want)
	}
	if e := r.OpenError; e == nil || e.Tool != "shell_command" || e.Input != "go vet" || e.Error != "Exit code 1 vet: bad" {
		t.Errorf("shell_command's exit: %+v", e)
	}
	for out, tool := range map[string]string{badFix: "apply_patch", stdin: "write_stdin"} {
		r, _ := Read(context.Background(), lines(t, request, patch, out), transcript.DefaultOptions)
		if e := r.OpenError; e == nil || e.Tool != tool || !strings.Contains(e.Error, "failed") {
			t.Errorf("%s's failure: %+v", tool, e)
		}
	}
	r, _ = Read(context.Background(), lines(t, request, wrapped, skill), transcript.DefaultOptions)
	if r.LastPrompt != "make it look like the picture" {
		t.Errorf("the request Codex Desktop wrapped, an image and a skill after it: %q", r.LastPrompt)
	}
}

// A held stop's reason, sent back to the model as a user message, is
// ours: the request stays the user's.
func TestAHeldStopsReasonIsNotTheRequest(t *testing.T) {
	held := `{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Before you stop (long-running agent checks):\n- commit"}]}}`
	r, err := Read(context.Background(), lines(t, request, held), transcript.DefaultOptions)
	if err != nil || r.LastPrompt != "rename the lexer" {
		t.Errorf("request %q, %v", r.LastPrompt, err)
	}
}

// After "go on" and "what next?", the request that set the work is kept.
func TestTerseRequestsKeepTheOneThatSetTheWork(t *testing.T) {
	user := func(text string) string {
		return `{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"` + text + `"}]}}`
	}
	r, err := Read(context.Background(), lines(t, user("Rename the lexer package to scanner and fix its tests"), user("go on"), user("what next?")), transcript.DefaultOptions)
	if err != nil || r.LastPrompt != "what next?" || r.PreviousPrompt != "Rename the lexer package to scanner and fix its tests" {
		t.Errorf("request %q, before it %q, %v", r.LastPrompt, r.PreviousPrompt, err)
	}
}
