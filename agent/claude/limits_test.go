package claude

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/transcript"
)

// Texts from before a compaction are kept when fewer than three came
// after it: the walk goes on past the boundary for them.
func TestTextsBeforeACompactionFillUpTheThree(t *testing.T) {
	f := read(t, say("before one"), say("before two"), boundary, user("carry on with the parser, please"),
		call("r", "Bash", `{"command":"go test"}`), answer("r", "ok", false, ""), usage(1000), say("after"))
	if want := []string{"before one", "before two", "after"}; !reflect.DeepEqual(f.Texts, want) {
		t.Errorf("texts %q, want %q", f.Texts, want)
	}
}

// The task list's time is the newest task tool call's, whatever tool
// came after it.
func TestTasksChangedAtIgnoresOtherTools(t *testing.T) {
	f := read(t, at(call("c1", "TaskCreate", `{"subject":"Parse","description":"d"}`), "2026-11-24T10:01:00.000Z"),
		at(answer("c1", "Task #1 created successfully", false, `"toolUseResult":{"task":{"id":"1"}},`), "2026-11-24T10:01:01.000Z"),
		at(call("b", "Bash", `{"command":"go test"}`), "2026-11-24T10:02:00.000Z"),
		at(call("e", "Edit", `{"file_path":"/p/a.go"}`), "2026-11-24T10:03:00.000Z"))
	if f.TasksChangedAt != "2026-11-24T10:01:00.000Z" {
		t.Errorf("tasks changed at %q", f.TasksChangedAt)
	}
}

func created(id, taskID string) string {
	return answer(id, "Task #"+taskID+" created successfully", false, `"toolUseResult":{"task":{"id":"`+taskID+`"}},`)
}

// Tasks are listed in the order of their ids as numbers (as Claude Code's
// task directory sorts them), ids that are not numbers first, in the
// order they were made; an update names its task by the id Claude Code
// gave it.
func TestTasksAreInTheOrderOfTheirIds(t *testing.T) {
	f := read(t,
		call("c1", "TaskCreate", `{"subject":"ten"}`), created("c1", "10"),
		call("c2", "TaskCreate", `{"subject":"nine"}`), created("c2", "9"),
		call("c3", "TaskCreate", `{"subject":"x"}`), created("c3", "x"),
		call("c4", "TaskCreate", `{"subject":"y"}`), created("c4", "y"),
		call("u1", "TaskUpdate", `{"taskId":"10","status":"completed"}`), answer("u1", "Updated task #10", false, ""))
	want := []transcript.Todo{{Content: "x", Status: "pending"}, {Content: "y", Status: "pending"}, {Content: "nine", Status: "pending"}, {Content: "ten", Status: "completed"}}
	if !reflect.DeepEqual(f.Tasks, want) {
		t.Errorf("tasks %+v, want %+v", f.Tasks, want)
	}
}

// A TaskCreate whose result gives no id (older Claude Code) is numbered
// in order of creation, as Claude Code numbered them.
func TestTasksWithoutAnIdAreNumberedInOrder(t *testing.T) {
	f := read(t,
		call("c1", "TaskCreate", `{"subject":"one"}`), answer("c1", "created", false, ""),
		call("c2", "TaskCreate", `{"subject":"two"}`), answer("c2", "created", false, ""),
		call("u1", "TaskUpdate", `{"taskId":"2","status":"in_progress"}`), answer("u1", "Updated task #2", false, ""))
	want := []transcript.Todo{{Content: "one", Status: "pending"}, {Content: "two", Status: "in_progress"}}
	if !reflect.DeepEqual(f.Tasks, want) {
		t.Errorf("tasks %+v, want %+v", f.Tasks, want)
	}
}

// What a transcript can make the reader hold is bounded: files, follow-ups
// and task calls each stop at their limit, the newest kept.
func TestTheListsReadAreBounded(t *testing.T) {
	var lines []string
	for i := range transcript.MaxFiles + 1 {
		id := fmt.Sprint("w", i)
		lines = append(lines, call(id, "Write", fmt.Sprintf(`{"file_path":"/p/%d.go"}`, i)), answer(id, "ok", false, ""))
	}
	if f := read(t, lines...); len(f.FilesTouched) != transcript.MaxFiles || f.FilesTouched[transcript.MaxFiles-1] != fmt.Sprintf("/p/%d.go", transcript.MaxFiles) {
		t.Errorf("%d files, the last %q", len(f.FilesTouched), f.FilesTouched[len(f.FilesTouched)-1])
	}
	lines = []string{user("tidy the loader")}
	for i := range maxFollowUps + 1 {
		id := fmt.Sprint("r", i)
		lines = append(lines, call(id, "Edit", `{"file_path":"/p/a.go"}`),
			answer(id, fmt.Sprintf("The user doesn't want to proceed with this tool use. the user said:\nnot that %d", i), true, ""))
	}
	if f := read(t, lines...); len(f.FollowUps) != maxFollowUps {
		t.Errorf("%d follow-ups, want %d", len(f.FollowUps), maxFollowUps)
	}
	lines = []string{call("c", "TaskCreate", `{"subject":"old"}`), created("c", "1")}
	for i := range maxTaskCalls {
		id := fmt.Sprint("u", i)
		lines = append(lines, call(id, "TaskUpdate", `{"taskId":"1","status":"in_progress"}`), answer(id, "Updated", false, ""))
	}
	// The create is the call past the limit: the task it made is unknown.
	if f := read(t, lines...); len(f.Tasks) != 0 {
		t.Errorf("tasks %+v: the walk kept more than %d task calls", f.Tasks, maxTaskCalls)
	}
}

// A torn newest line (Claude Code is writing it) is not read, even when
// it happens to end with a brace.
func TestATornNewestLineIsNotRead(t *testing.T) {
	f := read(t, say("whole"), `{"type":"assistant","message":{"id":"m","content":[{"type":"text","text":"torn"},{"type":"tool_use","id":"x","name":"Bash","input":{}}`)
	if !reflect.DeepEqual(f.Texts, []string{"whole"}) {
		t.Errorf("texts %q", f.Texts)
	}
}

// Lines of exactly the limit are read; one byte more and they are
// skipped and counted, wherever they fall: inside a chunk, across two,
// or first in the file.
func TestTailReaderKeepsLinesOfExactlyTheLimit(t *testing.T) {
	const maxLine = 1000
	for _, first := range []int{maxLine - 1, maxLine, maxLine + 1} {
		lines := []string{strings.Repeat("f", first)}
		for i := 0; i < 3*minChunk/maxLine; i++ {
			lines = append(lines, strings.Repeat(string(rune('a'+i%26)), maxLine-1+i%3))
		}
		data := []byte(strings.Join(lines, "\n") + "\n")
		tr := newTailReader(bytes.NewReader(data), int64(len(data)), 1<<40, maxLine)
		for i := len(lines) - 1; i >= 0; i-- {
			got, over, err := tr.Next()
			if wantOver := len(lines[i]) > maxLine; err != nil || over != wantOver || !wantOver && string(got) != lines[i] {
				t.Fatalf("first %d, line %d of %d bytes: got %d bytes, oversized %v, %v", first, i, len(lines[i]), len(got), over, err)
			}
		}
		if _, _, err := tr.Next(); err != io.EOF {
			t.Fatalf("want EOF, got %v", err)
		}
	}
}

type failingReader struct{}

func (failingReader) ReadAt([]byte, int64) (int, error) { return 0, errors.New("input/output error") }

func TestTailReaderReportsAReadError(t *testing.T) {
	tr := newTailReader(failingReader{}, 100, 1<<40, 1000)
	if _, _, err := tr.Next(); err == nil || !strings.Contains(err.Error(), "input/output error") {
		t.Errorf("got %v", err)
	}
}

// Blank lines, the file's first included, are no lines.
func TestTailReaderSkipsBlankLinesAtTheStart(t *testing.T) {
	data := []byte("\n\nabc\n\ndef\n")
	tr := newTailReader(bytes.NewReader(data), int64(len(data)), 1<<40, 1000)
	for _, want := range []string{"def", "abc"} {
		if got, _, err := tr.Next(); err != nil || string(got) != want {
			t.Fatalf("got %q, %v; want %q", got, err, want)
		}
	}
	if got, _, err := tr.Next(); err != io.EOF {
		t.Fatalf("got %q, %v; want EOF", got, err)
	}
}

// A newest line is checked whole up to 256 KiB: one of exactly that size
// that is torn is not read.
func TestATornNewestLineOfExactly256KiBIsNotRead(t *testing.T) {
	head := `{"type":"assistant","message":{"id":"m","content":[{"type":"text","text":"torn"},{"type":"text","text":"`
	line := head + strings.Repeat("x", 256<<10-len(head)-1) + "}"
	if len(line) != 256<<10 {
		t.Fatalf("%d bytes", len(line))
	}
	f := read(t, say("whole"), line)
	if !reflect.DeepEqual(f.Texts, []string{"whole"}) {
		t.Errorf("texts %q", f.Texts)
	}
}
