package copilot

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/transcript"
)

const fixtures = "../../testdata/copilot-1.0.102"

// The recorded session: a request that creates parser.go and runs a
// command exiting 1, a /compact, then a resumed "go on" that edits
// parser.go and answers.
func TestReadTheRecordedSession(t *testing.T) {
	f, err := Read(context.Background(), filepath.Join(fixtures, "events.jsonl"), transcript.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if f.LastPrompt != "go on" || f.PreviousPrompt != "fix the parser so that the tests pass" {
		t.Errorf("requests %q, %q; want the terse one and the one before it", f.LastPrompt, f.PreviousPrompt)
	}
	if !strings.HasPrefix(f.LastPromptAt, "2026-") {
		t.Errorf("LastPromptAt = %q", f.LastPromptAt)
	}
	if len(f.Texts) != 1 || f.Texts[0] != "The tests pass." {
		t.Errorf("Texts = %q, want the answer since the compaction", f.Texts)
	}
	if len(f.FilesTouched) != 1 || !strings.HasSuffix(f.FilesTouched[0], "/project/parser.go") {
		t.Errorf("FilesTouched = %q, want parser.go, edited since the compaction", f.FilesTouched)
	}
	if f.OpenError != nil {
		t.Errorf("an error is open: %+v; the failing command came before the last request", f.OpenError)
	}
	if f.Compaction == "" || !f.Usage.Known || f.Usage.Tokens != 1000 || f.Usage.Model != "claude-sonnet-4" {
		t.Errorf("compaction %q, usage %+v", f.Compaction, f.Usage)
	}
	if len(f.Notes) != 0 {
		t.Errorf("notes: %q", f.Notes)
	}
}

// The events up to the compaction's start: the failing command is the
// open error, the file created is touched, and no compaction is named.
func TestReadBeforeTheCompaction(t *testing.T) {
	lines := fixtureLines(t)
	at := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, `"type":"session.compaction_start"`) })
	f := readLines(t, lines[:at])
	if f.Compaction != "" || f.LastPrompt != "fix the parser so that the tests pass" || f.PreviousPrompt != "" {
		t.Errorf("compaction %q, request %q, previous %q", f.Compaction, f.LastPrompt, f.PreviousPrompt)
	}
	if e := f.OpenError; e == nil || e.Tool != "bash" || !strings.Contains(e.Input, "exit 1") ||
		!strings.HasPrefix(e.Error, "Exit code 1") || !strings.Contains(e.Error, "want 3, got 4") {
		t.Errorf("OpenError = %+v, want the bash command that exited 1", e)
	}
	if len(f.FilesTouched) != 1 || !strings.HasSuffix(f.FilesTouched[0], "parser.go") {
		t.Errorf("FilesTouched = %q", f.FilesTouched)
	}
	if len(f.Texts) != 1 || f.Texts[0] != "I will look at the parser." {
		t.Errorf("Texts = %q", f.Texts)
	}
}

func TestAFailedToolCallIsTheOpenErrorAndWritesNothing(t *testing.T) {
	f := readLines(t, []string{
		`{"type":"user.message","timestamp":"t1","data":{"content":"write it"}}`,
		`{"type":"tool.execution_start","data":{"toolCallId":"c1","toolName":"edit","arguments":{"path":"/p/a.go"}}}`,
		`{"type":"tool.execution_complete","data":{"toolCallId":"c1","success":false,"error":{"message":"old_str not found"},"fileEdits":[{"path":"/p/a.go"}]}}`,
	})
	if e := f.OpenError; e == nil || e.Tool != "edit" || e.Input != "/p/a.go" || e.Error != "old_str not found" {
		t.Errorf("OpenError = %+v", e)
	}
	if len(f.FilesTouched) != 0 {
		t.Errorf("a failed call touched %q", f.FilesTouched)
	}
	f = readLines(t, []string{`{"type":"tool.execution_complete","data":{"toolCallId":"c9","success":false}}`})
	if e := f.OpenError; e == nil || e.Tool != "tool" || e.Error != "failed" {
		t.Errorf("OpenError of an unknown call without a message = %+v", e)
	}
}

func TestANewerResultClosesTheError(t *testing.T) {
	f := readLines(t, []string{
		`{"type":"tool.execution_complete","data":{"toolCallId":"c1","success":true,"shellExecution":{"exitCode":2},"result":{"content":"boom"}}}`,
		`{"type":"tool.execution_complete","data":{"toolCallId":"c2","success":true,"shellExecution":{"exitCode":0},"result":{"content":"ok"}}}`,
	})
	if f.OpenError != nil {
		t.Errorf("OpenError = %+v after a call that succeeded", f.OpenError)
	}
}

func TestFilesAreListedOnceNewestLastAndBounded(t *testing.T) {
	var lines []string
	edit := func(p string) string {
		return `{"type":"tool.execution_complete","data":{"success":true,"fileEdits":[{"path":"` + p + `"}]}}`
	}
	lines = append(lines, edit("/p/a"), edit("/p/b"), edit("/p/a"), edit(""))
	f := readLines(t, lines)
	if strings.Join(f.FilesTouched, " ") != "/p/b /p/a" {
		t.Errorf("FilesTouched = %q", f.FilesTouched)
	}
	lines = nil
	for i := range transcript.MaxFiles + 5 {
		lines = append(lines, edit("/p/f"+strings.Repeat("x", i%3)+string(rune('a'+i%26))+strings.Repeat("y", i)))
	}
	f = readLines(t, lines)
	if len(f.FilesTouched) != transcript.MaxFiles || !strings.HasSuffix(f.FilesTouched[len(f.FilesTouched)-1], strings.Repeat("y", transcript.MaxFiles+4)) {
		t.Errorf("%d files, the newest last: %v", len(f.FilesTouched), len(f.FilesTouched) > 0)
	}
}

func TestTheLastThreeTextsAreKeptTheNewestLongest(t *testing.T) {
	var lines []string
	for _, s := range []string{"one", "", "two", "three", strings.Repeat("w ", transcript.LatestRunes)} {
		lines = append(lines, `{"type":"assistant.message","data":{"content":"`+s+`"}}`)
	}
	f := readLines(t, lines)
	if len(f.Texts) != 3 || f.Texts[0] != "two" || f.Texts[1] != "three" || len([]rune(f.Texts[2])) > transcript.LatestRunes+3 || len([]rune(f.Texts[2])) < transcript.LatestRunes-3 {
		t.Errorf("Texts = %q", f.Texts)
	}
	long := strings.Repeat("v ", transcript.LatestRunes)
	f = readLines(t, []string{`{"type":"assistant.message","data":{"content":"` + long + `"}}`, `{"type":"assistant.message","data":{"content":"last"}}`})
	if n := len([]rune(f.Texts[0])); n > transcript.ExcerptRunes+3 || n < transcript.ExcerptRunes-3 {
		t.Errorf("an older text keeps %d runes, want about %d", n, transcript.ExcerptRunes)
	}
}

func TestUsageIsTheLatestCallsWholeInput(t *testing.T) {
	f := readLines(t, []string{
		`{"type":"session.usage_record","data":{"usage":{"model":"gpt-5","inputTokens":100,"outputTokens":7,"cacheReadTokens":900,"cacheWriteTokens":50}}}`,
	})
	if u := f.Usage; !u.Known || u.Tokens != 1050 || u.Output != 7 || u.Model != "gpt-5" {
		t.Errorf("Usage = %+v", u)
	}
	for _, good := range []struct {
		usage  string
		tokens int
	}{{`"inputTokens":0,"cacheReadTokens":900`, 900}, {`"inputTokens":1000000000`, 1000000000}, {`"inputTokens":5,"outputTokens":1000000000`, 5},
		{`"inputTokens":999999000,"cacheWriteTokens":1000`, 1000000000}} {
		f := readLines(t, []string{`{"type":"session.usage_record","data":{"usage":{` + good.usage + `}}}`})
		if !f.Usage.Known || f.Usage.Tokens != good.tokens {
			t.Errorf("usage {%s}: %+v, want %d tokens known", good.usage, f.Usage, good.tokens)
		}
	}
	for _, bad := range []string{`"inputTokens":-5`, `"inputTokens":999999000,"cacheWriteTokens":1001`, `"inputTokens":-1,"cacheReadTokens":5`, `"inputTokens":0`, `"inputTokens":2000000000`, `"inputTokens":5,"outputTokens":-1`,
		`"inputTokens":5,"outputTokens":2000000000`, `"inputTokens":5,"cacheReadTokens":-9`} {
		f := readLines(t, []string{`{"type":"session.usage_record","data":{"usage":{` + bad + `}}}`})
		if f.Usage.Known {
			t.Errorf("usage {%s} was taken as true: %+v", bad, f.Usage)
		}
	}
}

func TestOnlyAnAppliedCompactionCounts(t *testing.T) {
	for line, want := range map[string]string{
		`{"type":"session.compaction_complete","data":{"success":true,"outcome":"applied","compactionAttemptId":"c-1"}}`:  "c-1",
		`{"type":"session.compaction_complete","data":{"success":false,"outcome":"applied","compactionAttemptId":"c-2"}}`: "",
		`{"type":"session.compaction_complete","data":{"success":true,"outcome":"skipped","compactionAttemptId":"c-3"}}`:  "",
	} {
		if f := readLines(t, []string{line}); f.Compaction != want {
			t.Errorf("%s: Compaction = %q, want %q", line, f.Compaction, want)
		}
	}
}

func TestTornAndForeignLinesAreSkipped(t *testing.T) {
	f := readLines(t, []string{`{"type":"user.message","data":{"content":"real"}}`, `{"type":"user.message","data":{"content":"to`, `not json`, `{"type":"user.message","data":{"content":"  "}}`})
	if f.LastPrompt != "real" {
		t.Errorf("LastPrompt = %q", f.LastPrompt)
	}
}

// Only the budget's bytes before the end are read, the first (partial)
// line skipped, and the notes say so.
func TestTheBudgetBoundsWhatIsReadAndSaysSo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	old := `{"type":"user.message","data":{"content":"old request"}}` + "\n"
	recent := `{"type":"user.message","data":{"content":"recent request"}}` + "\n"
	huge := `{"type":"assistant.message","data":{"content":"` + strings.Repeat("z", 200) + `"}}` + "\n"
	os.WriteFile(path, []byte(old+recent+huge), 0o600)
	f, err := Read(context.Background(), path, transcript.Options{Budget: int64(len(recent) + len(huge) + 5), MaxLine: 100})
	if err != nil {
		t.Fatal(err)
	}
	if f.LastPrompt != "recent request" || len(f.Texts) != 0 || len(f.Notes) != 2 {
		t.Errorf("request %q, texts %q, notes %q", f.LastPrompt, f.Texts, f.Notes)
	}
	if _, err := Read(context.Background(), filepath.Join(t.TempDir(), "missing"), transcript.DefaultOptions); err == nil {
		t.Error("a missing file read without an error")
	}
}

func fixtureLines(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func readLines(t *testing.T, lines []string) *transcript.Facts {
	t.Helper()
	path := filepath.Join(t.TempDir(), "events.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Read(context.Background(), path, transcript.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Versions before 1.0.102 (lines written by us, in their shapes): a
// message with a source is Copilot's own; without fileEdits, the files
// are the write tools' paths and apply_patch's headers; a shell's exit
// code is its result's last line or its telemetry's; a subagent's failure
// is not what the main agent left open; a request does not close an
// error, only a success does.
func TestTheShapesOfOlderCopilotVersions(t *testing.T) {
	start := func(id, name, args string) string {
		return `{"type":"tool.execution_start","data":{"toolCallId":"` + id + `","toolName":"` + name + `","arguments":` + args + `}}`
	}
	done := func(id, extra string) string {
		return `{"type":"tool.execution_complete","data":{"toolCallId":"` + id + `","success":true` + extra + `}}`
	}
	f := readLines(t, []string{
		`{"type":"user.message","data":{"content":"modularise the project"}}`,
		`{"type":"user.message","data":{"content":"<skill-context name=\"plans\">…","source":"skill-plans"}}`,
		start("e", "edit", `{"path":"/p/a.ts","old_str":"x","new_str":"y"}`), done("e", ""),
		start("c", "create", `{"path":"/p/b.ts","file_text":"z"}`), done("c", ""),
		start("p", "apply_patch", `"*** Begin Patch\n*** Add File: /p/plan.md\n+x\n*** Update File: /p/a.ts\n@@\n*** End Patch"`), done("p", ""),
		start("v", "view", `{"path":"/p/c.ts"}`), done("v", ""),
		start("b", "bash", `{"command":"npm test"}`), done("b", `,"result":{"content":"2 failing\n<exited with exit code 1>"}`),
	})
	if f.LastPrompt != "modularise the project" {
		t.Errorf("the request: %q", f.LastPrompt)
	}
	if want := []string{"/p/b.ts", "/p/plan.md", "/p/a.ts"}; !reflect.DeepEqual(f.FilesTouched, want) {
		t.Errorf("files %q, want %q", f.FilesTouched, want)
	}
	if e := f.OpenError; e == nil || e.Tool != "bash" || e.Input != "npm test" || e.Error != "Exit code 1 2 failing" {
		t.Errorf("the open error: %+v", e)
	}
	for name, lines := range map[string][]string{
		"the telemetry's exit code": {start("b", "bash", `{"command":"make"}`), done("b", `,"result":{"content":"no"},"toolTelemetry":{"metrics":{"exit_code":2}}`)},
		"a shell session's marker":  {start("b", "read_bash", `{"shellId":"s1"}`), done("b", `,"result":{"content":"x\n<shellId: s1 completed with exit code 3>"}`)},
	} {
		if f := readLines(t, lines); f.OpenError == nil || !strings.HasPrefix(f.OpenError.Error, "Exit code ") {
			t.Errorf("%s: %+v", name, f.OpenError)
		}
	}
	sub := readLines(t, []string{
		start("b", "bash", `{"command":"ls"}`), done("b", ""),
		`{"type":"tool.execution_start","data":{"toolCallId":"s","toolName":"bash","parentToolCallId":"t1","arguments":{"command":"false"}}}`,
		`{"type":"tool.execution_complete","data":{"toolCallId":"s","success":false,"error":{"message":"boom"}}}`,
	})
	if sub.OpenError != nil {
		t.Errorf("a subagent's failure is the main agent's open error: %+v", sub.OpenError)
	}
	after := readLines(t, []string{
		start("b", "bash", `{"command":"go test"}`), `{"type":"tool.execution_complete","data":{"toolCallId":"b","success":false,"error":{"message":"boom"}}}`,
		`{"type":"user.message","data":{"content":"why?"}}`,
	})
	if after.OpenError == nil || !after.ErrorBeforeRequest {
		t.Errorf("a request after a failure: open %+v, before the request %v", after.OpenError, after.ErrorBeforeRequest)
	}
}

// The task list is the todos table the sql tool's statements build,
// replayed in order: inserts (a second of the same id refused, or
// replaced at the end), updates by id or ids, deletes; other statements
// and a subagent's change nothing; quotes are unquoted.
func TestTheTaskListIsTheTodosTableReplayed(t *testing.T) {
	sql := func(id, q, parent string) []string {
		args, _ := json.Marshal(map[string]string{"query": q, "description": "todos"})
		return []string{`{"type":"tool.execution_start","data":{"toolCallId":"` + id + `","toolName":"sql","parentToolCallId":"` + parent + `","arguments":` + string(args) + `}}`,
			`{"type":"tool.execution_complete","timestamp":"t-` + id + `","data":{"toolCallId":"` + id + `","success":true}}`}
	}
	var lines []string
	lines = append(lines, sql("1", "INSERT INTO todos (id, title, description, status) VALUES\n ('a', 'Read the code', 'd', 'pending'),\n ('b', 'Write the plan''s draft', 'd', 'pending'),\n ('c', 'Drop this', 'd', 'pending');", "")...)
	lines = append(lines, sql("2", "UPDATE todos SET status = 'done' WHERE id IN ('a', 'b'); SELECT * FROM todos;", "")...)
	lines = append(lines, sql("3", "INSERT INTO todos (id, title) VALUES ('a', 'refused: the id is taken');", "")...)
	lines = append(lines, sql("4", "DELETE FROM todos WHERE id = 'c'", "")...)
	lines = append(lines, sql("5", "INSERT OR REPLACE INTO todos (id, title, status) VALUES ('b', 'Write the plan', 'in_progress')", "")...)
	lines = append(lines, sql("6", "DELETE FROM todos", "sub")...)
	f := readLines(t, lines)
	want := []transcript.Todo{{Content: "Read the code", Status: "done"}, {Content: "Write the plan", Status: "in_progress"}}
	if !reflect.DeepEqual(f.Todos, want) || f.TasksChangedAt != "t-5" {
		t.Errorf("the task list %+v (changed at %q), want %+v", f.Todos, f.TasksChangedAt, want)
	}
	if f := readLines(t, sql("1", "SELECT 1", "")); f.Todos != nil {
		t.Errorf("a query that builds no table gave %+v", f.Todos)
	}
}

// After "go on" and "what next?", the request that set the work is kept.
func TestTerseRequestsKeepTheOneThatSetTheWork(t *testing.T) {
	f := readLines(t, []string{`{"type":"user.message","data":{"content":"Rename the lexer package to scanner and fix its tests"}}`,
		`{"type":"user.message","data":{"content":"go on"}}`, `{"type":"user.message","data":{"content":"what next?"}}`})
	if f.LastPrompt != "what next?" || f.PreviousPrompt != "Rename the lexer package to scanner and fix its tests" {
		t.Errorf("request %q, before it %q", f.LastPrompt, f.PreviousPrompt)
	}
}
