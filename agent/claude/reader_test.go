package claude

import (
	"bytes"
	"context"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/transcript"
)

const (
	fixtureDir     = "../../testdata/claude-2.1.330"
	fixtureSession = "186971df-3751-4c74-8559-0a238a365e26"
)

func fixture(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureDir, fixtureSession+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// untilCompaction is the transcript as it stood when PreCompact fired: every
// line before the compact_boundary entry Claude Code wrote afterwards.
func untilCompaction(t *testing.T, b []byte) []byte {
	i := bytes.Index(b, []byte(`"subtype":"compact_boundary"`))
	if i < 0 {
		t.Fatal("fixture has no compact boundary")
	}
	return b[:bytes.LastIndexByte(b[:i], '\n')+1]
}

func writeTemp(t *testing.T, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadRecordedTranscriptAtPreCompact(t *testing.T) {
	path := writeTemp(t, untilCompaction(t, fixture(t)))
	f, err := Read(context.Background(), path, transcript.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	wantTexts := []string{"I will start by planning the work on notes.txt.", "notes.txt is written; next I will commit it."}
	if !reflect.DeepEqual(f.Texts, wantTexts) {
		t.Errorf("texts %q, want %q", f.Texts, wantTexts)
	}
	if f.LastPrompt != "Please write notes.txt with my first notes." {
		t.Errorf("last prompt %q", f.LastPrompt)
	}
	if len(f.FilesTouched) != 1 || !strings.HasSuffix(f.FilesTouched[0], "/proj/notes.txt") {
		t.Errorf("files touched %q", f.FilesTouched)
	}
	if len(f.Notes) != 0 {
		t.Errorf("notes %q", f.Notes)
	}
}

func TestReadAfterCompactionKeepsOlderTextsButNotOlderFiles(t *testing.T) {
	f, err := Read(context.Background(), writeTemp(t, fixture(t)), transcript.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	wantTexts := []string{"I will start by planning the work on notes.txt.", "notes.txt is written; next I will commit it.", "Done."}
	if !reflect.DeepEqual(f.Texts, wantTexts) {
		t.Errorf("texts %q, want %q", f.Texts, wantTexts)
	}
	if f.LastPrompt != "Carry on." {
		t.Errorf("last prompt %q: slash commands and compact summaries are not prompts", f.LastPrompt)
	}
	if len(f.FilesTouched) != 0 {
		t.Errorf("files touched before the boundary were reported: %q", f.FilesTouched)
	}
}

func TestTasksReadsTheRecordedTaskList(t *testing.T) {
	got := Tasks(fixtureDir, fixtureSession)
	want := []transcript.Todo{{Content: "Write notes.txt", Status: "in_progress"}, {Content: "Commit the notes", Status: "pending"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if got := Tasks(fixtureDir, "../"+fixtureSession); got != nil {
		t.Errorf("a session id with a path escaped the tasks directory: %+v", got)
	}
}

func TestReadTakesTheLatestTodoWrite(t *testing.T) {
	var b bytes.Buffer
	todo := func(content string) string {
		return `{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","name":"TodoWrite","input":{"todos":[{"content":"` + content + `","status":"pending","activeForm":"x"}]}}]}}` + "\n"
	}
	b.WriteString(todo("old plan"))
	b.WriteString(todo("new plan"))
	f, err := Read(context.Background(), writeTemp(t, b.Bytes()), transcript.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Todos) != 1 || f.Todos[0].Content != "new plan" {
		t.Errorf("todos %+v", f.Todos)
	}
}

func TestReadWalksPastBookkeepingToFindTexts(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"type":"assistant","message":{"content":[{"type":"text","text":"the real work"}]}}` + "\n")
	for i := 0; i < 5000; i++ { // far more than the Node script's 50 lines
		b.WriteString(`{"type":"attachment","attachment":{"type":"date"}}` + "\n")
	}
	f, err := Read(context.Background(), writeTemp(t, b.Bytes()), transcript.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Texts) != 1 || f.Texts[0] != "the real work" {
		t.Errorf("texts %q", f.Texts)
	}
}

func TestReadSkipsOversizedAndBrokenLines(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"type":"assistant","message":{"content":[{"type":"text","text":"before"}]}}` + "\n")
	b.WriteString(`{"type":"user","message":{"content":[{"type":"tool_result","content":"` + strings.Repeat("x", 3<<20) + `"}]}}` + "\n")
	b.WriteString("not json at all\n\x00\xff garbage\n")
	b.WriteString(`{"type":"assistant","message":{"content":[{"type":"text","text":"after"`) // torn last line
	opt := transcript.DefaultOptions
	opt.MaxLine = 1 << 20
	f, err := Read(context.Background(), writeTemp(t, b.Bytes()), opt)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f.Texts, []string{"before"}) {
		t.Errorf("texts %q", f.Texts)
	}
	if len(f.Notes) != 1 || !strings.Contains(f.Notes[0], "1 transcript line(s) over 1 MiB were skipped") {
		t.Errorf("notes %q", f.Notes)
	}
}

func TestReadStopsAtItsBudgetAndSaysSo(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"type":"assistant","message":{"content":[{"type":"text","text":"too far back"}]}}` + "\n")
	for i := 0; i < 40000; i++ {
		b.WriteString(`{"type":"attachment","attachment":{"type":"date"}}` + "\n")
	}
	opt := transcript.DefaultOptions
	opt.Budget = 1 << 20
	f, err := Read(context.Background(), writeTemp(t, b.Bytes()), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Texts) != 0 || len(f.Notes) != 1 || !strings.Contains(f.Notes[0], "only the last 1 MiB") {
		t.Errorf("texts %q notes %q", f.Texts, f.Notes)
	}
}

func TestReadRefusesFilesThatAreNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.jsonl")
	paths := []string{dir, filepath.Join(dir, "missing.jsonl"), ""}
	if err := mkfifo(fifo); err == nil {
		paths = append(paths, fifo)
	}
	for _, p := range paths {
		if _, err := Read(context.Background(), p, transcript.DefaultOptions); err == nil {
			t.Errorf("Read(%q) succeeded", p)
		}
	}
}

// The tail reader must return exactly the file's non-empty lines, newest
// first, whatever the chunk boundaries and line lengths.
func TestTailReaderReturnsEveryLineInReverse(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 200; round++ {
		var lines []string
		var b bytes.Buffer
		for i := rng.Intn(40); i >= 0; i-- {
			l := strings.Repeat(string(rune('a'+rng.Intn(26))), rng.Intn(3*minChunk/2)+1)
			if rng.Intn(4) == 0 {
				l = strings.Repeat("z", rng.Intn(20)+1)
			}
			lines = append(lines, l)
			b.WriteString(l + "\n")
		}
		data := b.Bytes()
		if rng.Intn(2) == 0 {
			data = data[:len(data)-1] // no final newline
		}
		tr := newTailReader(bytes.NewReader(data), int64(len(data)), 1<<40, 1<<30)
		for i := len(lines) - 1; i >= 0; i-- {
			got, over, err := tr.Next()
			if err != nil || over || string(got) != lines[i] {
				t.Fatalf("round %d line %d: got %d bytes (oversized %v, %v), want %d", round, i, len(got), over, err, len(lines[i]))
			}
		}
		if _, _, err := tr.Next(); err != io.EOF {
			t.Fatalf("round %d: want EOF, got %v", round, err)
		}
	}
}
