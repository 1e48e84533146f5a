package opencode

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/transcript"
)

// The sessions the plugin handed over in a real OpenCode 1.18.33 run
// (e2e/recordopencode): at the compaction, and at the end of the resumed
// run after it.
const recorded = "../../testdata/opencode-1.18.33/"

func read(t *testing.T, path string, opt transcript.Options) *transcript.Facts {
	t.Helper()
	f, err := Read(context.Background(), path, opt)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestTheSessionAtTheCompactionHoldsTheWork(t *testing.T) {
	f := read(t, recorded+"session-PreCompact.json", transcript.DefaultOptions)
	if f.LastPrompt != `"write the notes and commit them"` {
		t.Errorf("request = %q", f.LastPrompt)
	}
	if len(f.Todos) != 2 || f.Todos[0] != (transcript.Todo{Content: "Write notes.txt", Status: "in_progress"}) || f.Todos[1].Status != "pending" {
		t.Errorf("todos = %+v", f.Todos)
	}
	if len(f.FilesTouched) != 1 || !strings.HasSuffix(f.FilesTouched[0], "/project/notes.txt") {
		t.Errorf("files = %q", f.FilesTouched)
	}
	if e := f.OpenError; e == nil || e.Tool != "read" || !strings.HasSuffix(e.Input, "missing.txt") || !strings.Contains(e.Error, "File not found") {
		t.Errorf("open error = %+v", e)
	}
	if !f.Usage.Known || f.Usage.Tokens != 199000 || f.Usage.Model != "fake-model" {
		t.Errorf("usage = %+v", f.Usage)
	}
	if len(f.Texts) != 1 || f.Texts[0] != "I will write the notes first." {
		t.Errorf("texts = %q", f.Texts)
	}
	if f.Compaction != "" || f.ErrorBeforeRequest || f.TasksChangedAt == "" || f.LastPromptAt == "" || len(f.Notes) != 0 {
		t.Errorf("facts = %+v", f)
	}
}

// After the compaction: what was written before it is in the summary,
// OpenCode's own continuation and summary are not the user's or the
// agent's words, a request after the error leaves it behind it, and the
// terse "go on" keeps the request that set the work.
func TestAfterTheCompactionTheNewWorkAlone(t *testing.T) {
	f := read(t, recorded+"session-SessionEnd.json", transcript.DefaultOptions)
	if f.LastPrompt != `"go on"` || f.PreviousPrompt != `"write the notes and commit them"` {
		t.Errorf("request = %q, previous %q", f.LastPrompt, f.PreviousPrompt)
	}
	if len(f.FilesTouched) != 0 || f.Compaction == "" {
		t.Errorf("files = %q, compaction %q", f.FilesTouched, f.Compaction)
	}
	if f.OpenError == nil || !f.ErrorBeforeRequest {
		t.Errorf("open error = %+v, before the request %v", f.OpenError, f.ErrorBeforeRequest)
	}
	for _, text := range f.Texts {
		if strings.Contains(text, "Objective") {
			t.Errorf("the summary was taken for the agent's text: %q", f.Texts)
		}
	}
	if len(f.Todos) != 2 {
		t.Errorf("the plan does not outlive the compaction: %+v", f.Todos)
	}
}

func write(t *testing.T, doc string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "session.json")
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func message(role string, parts ...string) string {
	return `{"info":{"role":"` + role + `","time":{"created":1795804448529}},"parts":[` + strings.Join(parts, ",") + `]}`
}

func text(s string, extra string) string {
	return `{"type":"text","text":` + fmt.Sprintf("%q", s) + extra + `}`
}

func tool(name, status, input, extra string) string {
	return `{"type":"tool","tool":"` + name + `","state":{"status":"` + status + `","input":` + input + extra + `}}`
}

func session(messages ...string) string {
	return `{"info":{"id":"ses_1","model":{"id":"m-1"}},"messages":[` + strings.Join(messages, ",\n") + `]}`
}

func TestTheRulesOfASession(t *testing.T) {
	patch := `{"patchText":"*** Begin Patch\n*** Update File: a.go\n*** Add File: b.go\n*** Move to: c.go\n*** End Patch"}`
	for _, tt := range []struct {
		name, doc string
		check     func(*transcript.Facts) string
	}{
		{"OpenCode's own words in a user message are not a request", session(
			message("user", text("fix the build", "")),
			message("user", text("Continue if you have next steps", `,"synthetic":true`), text("ignored", `,"ignored":true`))),
			func(f *transcript.Facts) string { return want(f.LastPrompt == "fix the build", f.LastPrompt) }},
		{"a held stop sent back as a prompt is not a request", session(
			message("user", text("fix the build", "")), message("user", text(transcript.HoldHeading+" commit", ""))),
			func(f *transcript.Facts) string { return want(f.LastPrompt == "fix the build", f.LastPrompt) }},
		{"a patch touches every file its envelope names", session(message("user", text("go", "")),
			message("assistant", tool("apply_patch", "completed", patch, ""))),
			func(f *transcript.Facts) string {
				return want(strings.Join(f.FilesTouched, " ") == "a.go b.go c.go", f.FilesTouched)
			}},
		{"a failed write touches nothing, and is the open error", session(message("user", text("go", "")),
			message("assistant", tool("edit", "error", `{"filePath":"a.go"}`, `,"error":"oldString not found"`))),
			func(f *transcript.Facts) string {
				return want(len(f.FilesTouched) == 0 && f.OpenError != nil && f.OpenError.Tool == "edit" && f.OpenError.Input == "a.go" &&
					f.OpenError.Error == "oldString not found", f)
			}},
		{"a success after an error closes it", session(message("user", text("go", "")),
			message("assistant", tool("bash", "error", `{"command":"make"}`, `,"error":"boom"`), tool("bash", "completed", `{"command":"make"}`, ""))),
			func(f *transcript.Facts) string { return want(f.OpenError == nil, f.OpenError) }},
		{"a file written twice is listed once, newest last", session(message("user", text("go", "")),
			message("assistant", tool("write", "completed", `{"filePath":"a"}`, ""), tool("write", "completed", `{"filePath":"b"}`, ""),
				tool("multiedit", "completed", `{"filePath":"a"}`, ""))),
			func(f *transcript.Facts) string {
				return want(strings.Join(f.FilesTouched, " ") == "b a", f.FilesTouched)
			}},
		{"a call with no result yet is in flight", session(message("user", text("go", "")),
			message("assistant", tool("bash", "running", `{"command":"sleep 9"}`, ""))),
			func(f *transcript.Facts) string {
				return want(f.InFlight != nil && f.InFlight.Input == "sleep 9", f.InFlight)
			}},
		{"a compaction asked for keeps the files until its summary", session(message("user", text("go", "")),
			message("assistant", tool("write", "completed", `{"filePath":"a"}`, "")),
			`{"info":{"role":"assistant","tokens":{"input":10,"cache":{"read":5,"write":1}}},"parts":[]}`,
			`{"info":{"role":"user","id":"msg_9"},"parts":[{"type":"compaction"}]}`),
			func(f *transcript.Facts) string {
				return want(len(f.FilesTouched) == 1 && f.Usage.Known && f.Compaction == "", f)
			}},
		{"a compaction's summary forgets the files and the usage", session(message("user", text("go", "")),
			message("assistant", tool("write", "completed", `{"filePath":"a"}`, "")),
			`{"info":{"role":"user","id":"msg_9"},"parts":[{"type":"compaction"}]}`,
			`{"info":{"role":"assistant","summary":true,"tokens":{"input":90000}},"parts":[{"type":"text","text":"## Objective"}]}`),
			func(f *transcript.Facts) string {
				return want(len(f.FilesTouched) == 0 && !f.Usage.Known && f.Compaction == "msg_9" && len(f.Texts) == 0, f)
			}},
		{"the usage counts the cache", session(`{"info":{"role":"assistant","modelID":"m-2","tokens":{"input":10,"output":3,"cache":{"read":5,"write":1}}},"parts":[]}`),
			func(f *transcript.Facts) string {
				return want(f.Usage == transcript.Usage{Tokens: 16, Output: 3, Known: true, Model: "m-2"}, f.Usage)
			}},
		{"the model is the session's until a reply names one", session(),
			func(f *transcript.Facts) string { return want(f.Usage.Model == "m-1", f.Usage) }},
		{"a todo list that is not a list leaves the plan", session(message("user", text("go", "")),
			message("assistant", tool("todowrite", "completed", `{"todos":[{"content":"a","status":"pending"}]}`, "")),
			message("assistant", tool("todowrite", "completed", `{"todos":"a"}`, ""))),
			func(f *transcript.Facts) string { return want(len(f.Todos) == 1 && f.Todos[0].Content == "a", f.Todos) }},
		{"strings hold brackets, quotes and escapes", session(message("user", text(`a "[{" \ }] b`, ""))),
			func(f *transcript.Facts) string { return want(f.LastPrompt == `a "[{" \ }] b`, f.LastPrompt) }},
		{"members before and after the messages are skipped", `{"x":[1,{"y":"]"}],"messages":[` + message("user", text("go", "")) + `],"z":true}`,
			func(f *transcript.Facts) string { return want(f.LastPrompt == "go" && len(f.Notes) == 0, f) }},
		{"a document cut short keeps what it held", session(message("user", text("go", "")), message("user", text("more", "")))[:220],
			func(f *transcript.Facts) string {
				return want(f.LastPrompt == "go" && len(f.Notes) == 1 && strings.Contains(f.Notes[0], "cut short"), f)
			}},
		{"what is not a session says so", `[1,2]`,
			func(f *transcript.Facts) string { return want(f.LastPrompt == "" && len(f.Notes) == 1, f.Notes) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if msg := tt.check(read(t, write(t, tt.doc), transcript.DefaultOptions)); msg != "" {
				t.Error(msg)
			}
		})
	}
}

func want(ok bool, got any) string {
	if ok {
		return ""
	}
	return fmt.Sprintf("got %+v", got)
}

// Memory is bounded by the largest message kept, time by the budget: a
// message over MaxLine is skipped (and said), those that start more than
// the budget before the end are skimmed over unread.
func TestALongSessionIsReadWithinItsBounds(t *testing.T) {
	big := message("user", text(strings.Repeat("x", 5000), ""))
	doc := session(message("user", text("old request", "")), big, message("assistant", tool("write", "completed", `{"filePath":"a"}`, "")))
	f := read(t, write(t, doc), transcript.Options{Budget: 1 << 20, MaxLine: 1000})
	if f.LastPrompt != "old request" || len(f.FilesTouched) != 1 || len(f.Notes) != 1 || !strings.Contains(f.Notes[0], "1 message(s)") {
		t.Errorf("over MaxLine: %+v", f)
	}
	f = read(t, write(t, doc), transcript.Options{Budget: 300, MaxLine: 1 << 20})
	if f.LastPrompt != "" || len(f.FilesTouched) != 1 || len(f.Notes) != 1 || !strings.Contains(f.Notes[0], "last 300 bytes of the session were read (2 older ones skipped)") {
		t.Errorf("over the budget: %+v", f)
	}
}

func TestAMissingSessionIsAnError(t *testing.T) {
	if _, err := Read(context.Background(), filepath.Join(t.TempDir(), "none.json"), transcript.DefaultOptions); err == nil {
		t.Error("no error")
	}
}

func TestTheBoundsOfWhatIsKept(t *testing.T) {
	var many []string
	for i := 0; i <= transcript.MaxFiles; i++ {
		many = append(many, tool("write", "completed", fmt.Sprintf(`{"filePath":"f%d"}`, i), ""))
	}
	for _, tt := range []struct {
		name, doc string
		check     func(*transcript.Facts) string
	}{
		{"the newest files are kept, up to the most listed", session(message("user", text("go", "")), message("assistant", many...)),
			func(f *transcript.Facts) string {
				return want(len(f.FilesTouched) == transcript.MaxFiles && f.FilesTouched[0] == "f1", len(f.FilesTouched))
			}},
		{"the three latest texts are kept", session(message("assistant", text("a", ""), text("b", ""), text("c", ""), text("d", ""))),
			func(f *transcript.Facts) string { return want(len(f.Texts) == 3 && f.Texts[0] == "b", f.Texts) }},
		{"a reply that reports no tokens leaves the usage", session(
			`{"info":{"role":"assistant","tokens":{"input":7}},"parts":[]}`, `{"info":{"role":"assistant","tokens":{"input":0}},"parts":[]}`),
			func(f *transcript.Facts) string { return want(f.Usage.Tokens == 7, f.Usage) }},
		{"an impossible count is not a usage", session(`{"info":{"role":"assistant","tokens":{"input":1000000000}},"parts":[]}`),
			func(f *transcript.Facts) string { return want(!f.Usage.Known, f.Usage) }},
		{"a time of 0 is no time", `{"messages":[{"info":{"role":"user","time":{"created":0}},"parts":[` + text("go", "") + `]}]}`,
			func(f *transcript.Facts) string {
				return want(f.LastPrompt == "go" && f.LastPromptAt == "", f.LastPromptAt)
			}},
		{"the info after the messages is read", `{"messages":[],"info":{"model":{"id":"m-9"}}}`,
			func(f *transcript.Facts) string { return want(f.Usage.Model == "m-9", f.Usage) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if msg := tt.check(read(t, write(t, tt.doc), transcript.DefaultOptions)); msg != "" {
				t.Error(msg)
			}
		})
	}
}

// A message as long as MaxLine is read; one byte more is skipped.
func TestAMessageOfMaxLineBytesIsRead(t *testing.T) {
	m := message("user", text("go", ""))
	doc := session(m)
	if f := read(t, write(t, doc), transcript.Options{Budget: 1 << 20, MaxLine: len(m)}); f.LastPrompt != "go" {
		t.Errorf("a message of MaxLine bytes: %+v", f)
	}
	if f := read(t, write(t, doc), transcript.Options{Budget: 1 << 20, MaxLine: len(m) - 1}); f.LastPrompt != "" || len(f.Notes) != 1 {
		t.Errorf("a message of MaxLine+1 bytes: %+v", f)
	}
}

// The budget counts from where a message starts: one starting exactly
// the budget before the end is read, one a byte earlier is not.
func TestTheBudgetCountsFromAMessagesStart(t *testing.T) {
	last := message("user", text("new", ""))
	doc := session(message("user", text("old", "")), last)
	from := int64(len(doc) - strings.Index(doc, last))
	if f := read(t, write(t, doc), transcript.Options{Budget: from, MaxLine: 1 << 20}); f.LastPrompt != "new" || len(f.Notes) != 1 {
		t.Errorf("a message starting the budget before the end: %+v", f)
	}
	if f := read(t, write(t, doc), transcript.Options{Budget: from - 1, MaxLine: 1 << 20}); f.LastPrompt != "" {
		t.Errorf("a message starting before the budget: %+v", f)
	}
}

func TestSizesAreSaidInMiB(t *testing.T) {
	if mib(1<<20) != "1 MiB" || mib(1<<20-1) != "1048575 bytes" {
		t.Errorf("%q %q", mib(1<<20), mib(1<<20-1))
	}
}
