package droid

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/transcript"
)

// The session recorded from the real droid 0.225.2 (e2e/recorddroid):
// a request, a file written, a command that failed, a compaction inside
// the turn, a command that succeeded, the answer.
const recorded = "../../testdata/droid-0.225.2/session.jsonl"

// upTo is the recorded session up to the first line holding mark, whole.
func upTo(t *testing.T, mark string) string {
	t.Helper()
	b, err := os.ReadFile(recorded)
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, line := range strings.SplitAfter(string(b), "\n") {
		keep = append(keep, line)
		if mark != "" && strings.Contains(line, mark) {
			break
		}
	}
	return write(t, strings.Join(keep, ""))
}

func write(t *testing.T, s string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "session.jsonl")
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func read(t *testing.T, path string) *transcript.Facts {
	t.Helper()
	f, err := Read(context.Background(), path, transcript.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Before the compaction: the request (never Droid's own reminders or a
// hook's run), the file written, the failed command open.
func TestTheSessionBeforeTheCompactionHoldsTheWork(t *testing.T) {
	f := read(t, upTo(t, "Command failed"))
	if f.LastPrompt != "write the notes and commit them" || f.LastPromptAt == "" {
		t.Errorf("request = %q at %q", f.LastPrompt, f.LastPromptAt)
	}
	if len(f.FilesTouched) != 1 || f.FilesTouched[0] != "/tmp/recorddroid/project/notes.txt" {
		t.Errorf("files = %q", f.FilesTouched)
	}
	if e := f.OpenError; e == nil || e.Tool != "Execute" || e.Input != "false" || !strings.Contains(e.Error, "exit code: 1") {
		t.Errorf("open error = %+v", e)
	}
	if len(f.Texts) != 1 || f.Texts[0] != "I will write the notes first." || f.Usage.Model != "custom:Fake-0" || f.Compaction != "" {
		t.Errorf("facts = %+v", f)
	}
}

// After it: the compaction is named, the files written before are in its
// summary, the success closes the error.
func TestAfterTheCompactionTheNewWorkAlone(t *testing.T) {
	f := read(t, recorded)
	if f.Compaction == "" || len(f.FilesTouched) != 0 || f.OpenError != nil {
		t.Errorf("compaction %q, files %q, open error %+v", f.Compaction, f.FilesTouched, f.OpenError)
	}
	if f.LastPrompt != "write the notes and commit them" || f.Texts[len(f.Texts)-1] != "notes.txt is written; next I will commit it." {
		t.Errorf("facts = %+v", f)
	}
}

func line(role, content string, extra string) string {
	return `{"type":"message","timestamp":"2026-11-27T19:00:00Z","message":{"role":"` + role + `","content":` + content + extra + `}}` + "\n"
}

func TestTheRulesOfASession(t *testing.T) {
	use := func(id, name, input string) string {
		return `[{"type":"tool_use","id":"` + id + `","name":"` + name + `","input":` + input + `}]`
	}
	result := func(id string, failed bool, content string) string {
		return fmt.Sprintf(`[{"type":"tool_result","tool_use_id":%q,"is_error":%v,"content":%s}]`, id, failed, content)
	}
	req := line("user", `[{"type":"text","text":"fix the build"}]`, "")
	for _, tt := range []struct {
		name, doc string
		check     func(*transcript.Facts) string
	}{
		{"Droid's own messages are not requests", req + line("user", `[{"type":"text","text":"<system-reminder>x</system-reminder>"}]`, "") +
			line("user", `[{"type":"text","text":"context"}]`, `,"visibility":"llm_only"`) + line("user", `[]`, `,"hookEventName":"Stop"`) +
			line("user", `[{"type":"text","text":"`+transcript.HoldHeading+` commit"}]`, ""),
			func(f *transcript.Facts) string { return want(f.LastPrompt == "fix the build", f.LastPrompt) }},
		{"a request as a string", line("user", `"go on"`, ""),
			func(f *transcript.Facts) string { return want(f.LastPrompt == "go on", f.LastPrompt) }},
		{"a terse request keeps the one that set the work", req + line("user", `"go on"`, ""),
			func(f *transcript.Facts) string { return want(f.PreviousPrompt == "fix the build", f.PreviousPrompt) }},
		{"a failed write touches nothing", req + line("assistant", use("a", "Edit", `{"file_path":"x.go"}`), "") + line("user", result("a", true, `"old_str not found"`), ""),
			func(f *transcript.Facts) string {
				return want(len(f.FilesTouched) == 0 && f.OpenError != nil && f.OpenError.Error == "old_str not found", f)
			}},
		{"a patch touches the files of its envelope", req + line("assistant", use("a", "ApplyPatch", `{"input":"*** Begin Patch\n*** Add File: a.go\n*** Update File: b.go\n*** End Patch"}`), "") +
			line("user", result("a", false, `[{"type":"text","text":"ok"}]`), ""),
			func(f *transcript.Facts) string {
				return want(strings.Join(f.FilesTouched, " ") == "a.go b.go", f.FilesTouched)
			}},
		{"a file written twice is listed once, newest last", req +
			line("assistant", use("a", "Create", `{"file_path":"a"}`), "") + line("user", result("a", false, `"ok"`), "") +
			line("assistant", use("b", "Create", `{"file_path":"b"}`), "") + line("user", result("b", false, `"ok"`), "") +
			line("assistant", use("c", "Edit", `{"file_path":"a"}`), "") + line("user", result("c", false, `"ok"`), ""),
			func(f *transcript.Facts) string {
				return want(strings.Join(f.FilesTouched, " ") == "b a", f.FilesTouched)
			}},
		{"an error before a request stays open, behind it", req + line("assistant", use("a", "Execute", `{"command":"make"}`), "") +
			line("user", result("a", true, `[{"type":"text","text":"boom"}]`), "") + line("user", `"and now?"`, ""),
			func(f *transcript.Facts) string {
				return want(f.OpenError != nil && f.OpenError.Error == "boom" && f.ErrorBeforeRequest, f)
			}},
		{"the newest todo list stands", req + line("assistant", use("a", "TodoWrite", `{"todos":[{"content":"one","status":"pending"}]}`), "") +
			line("assistant", use("b", "TodoWrite", `{"todos":[{"content":"two","status":"in_progress"},{"content":"three","status":"pending"}]}`), ""),
			func(f *transcript.Facts) string {
				return want(len(f.Todos) == 2 && f.Todos[0] == (transcript.Todo{Content: "two", Status: "in_progress"}) && f.TasksChangedAt != "", f.Todos)
			}},
		{"the three latest texts are kept", line("assistant", `[{"type":"text","text":"a"},{"type":"text","text":"b"},{"type":"text","text":"c"},{"type":"text","text":"d"}]`, ""),
			func(f *transcript.Facts) string { return want(len(f.Texts) == 3 && f.Texts[0] == "b", f.Texts) }},
		{"a call's input is its command, its file, else its arguments", req + line("assistant", use("a", "Grep", `{"glob_pattern":"*.go"}`), "") +
			line("user", result("a", true, `"bad"`), ""),
			func(f *transcript.Facts) string {
				return want(f.OpenError != nil && f.OpenError.Input == `{"glob_pattern":"*.go"}`, f.OpenError)
			}},
		{"torn and foreign lines are skipped", "{\"type\":\"mess\n" + req + "not json\n",
			func(f *transcript.Facts) string { return want(f.LastPrompt == "fix the build", f.LastPrompt) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if msg := tt.check(read(t, write(t, tt.doc))); msg != "" {
				t.Error(msg)
			}
		})
	}
}

func TestTheNewestFilesAreKept(t *testing.T) {
	var b strings.Builder
	for i := 0; i <= transcript.MaxFiles; i++ {
		id := fmt.Sprint(i)
		b.WriteString(line("assistant", `[{"type":"tool_use","id":"`+id+`","name":"Create","input":{"file_path":"f`+id+`"}}]`, ""))
		b.WriteString(line("user", `[{"type":"tool_result","tool_use_id":"`+id+`","is_error":false,"content":"ok"}]`, ""))
	}
	if f := read(t, write(t, b.String())); len(f.FilesTouched) != transcript.MaxFiles || f.FilesTouched[0] != "f1" {
		t.Errorf("%d files, the first %q", len(f.FilesTouched), f.FilesTouched[0])
	}
}

func want(ok bool, got any) string {
	if ok {
		return ""
	}
	return fmt.Sprintf("got %+v", got)
}
