package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/hooks/state"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/events"
)

func sampleRecovery() facts.Recovery {
	tokens := 81234
	return facts.Recovery{Found: true, Nonce: "0123abcd", AgeMS: 90_000, Facts: &facts.Snapshot{
		Branch: "feature/parser", Time: "2026-11-23T11:58:30.000Z", Uncommitted: []string{"src/lexer.go"},
		LastPrompt: "3", PreviousPrompt: "Pick one of the three designs", FollowUps: []string{"use the table"},
		Tasks:          []facts.Task{{Content: "Rewrite the lexer", Status: "in_progress"}},
		AssistantTexts: []string{"older", "I chose design 3 and started on the lexer."},
		FilesTouched:   []string{"src/lexer.go"}, ContextTokens: &tokens,
		OpenError: &facts.ToolError{Tool: "Bash", Input: "go test ./src", Error: "FAIL lexer_test.go:9"},
	}, Since: &facts.Since{Commits: []string{"abc1234 Add the lexer table"}, NowClean: []string{"src/table.go"}}}
}

func TestRecoveryIsFramedAsHistoryMostImportantFirst(t *testing.T) {
	got := renderRecovered(sampleRecovery(), 9000)
	order := []string{
		"(session-hooks recovery 0123abcd) Captured at 2026-11-23 11:58 UTC, just before the compaction. This is history",
		"**The user's last request, before the compaction:**\n\n> 3\n",
		"It answered this earlier request:\n\n> Pick one of the three designs\n",
		"Then the user said:\n\n> use the table\n",
		"**Since the snapshot** (from git):\n- committed: `abc1234 Add the lexer table`\n- no longer uncommitted: `src/table.go`\n",
		"**Open error:** the last tool call failed: `Bash` `go test ./src`\n\n> FAIL lexer_test.go:9\n",
		"**Task list, before the compaction:**\n\n- [ ] Rewrite the lexer _(in progress)_\n",
		"**What the agent said last:**\n\n> I chose design 3 and started on the lexer.\n\nBefore that:\n\n> older\n",
		"**Files written since the previous compaction:**\n\n- `src/lexer.go`\n",
		"**Then:** branch `feature/parser`.",
		"_(end of session-hooks recovery 0123abcd)_\n",
	}
	at := 0
	for _, want := range order {
		i := strings.Index(got[at:], want)
		if i < 0 {
			t.Fatalf("missing, or out of order: %q\nin:\n%s", want, got)
		}
		at += i + len(want)
	}
}

func TestRecoveryCutToItsBudgetKeepsTheRequestAndTheEndMarker(t *testing.T) {
	rec := sampleRecovery()
	for i := 0; i < 400; i++ {
		rec.Facts.FilesTouched = append(rec.Facts.FilesTouched, "src/generated/file-"+strings.Repeat("x", 20)+".go")
	}
	got := renderRecovered(rec, 2500)
	if logs.Len(got) > 2500 {
		t.Errorf("%d characters for a budget of 2,500", logs.Len(got))
	}
	for _, keep := range []string{"> 3\n", "FAIL lexer_test.go:9", "Rewrite the lexer", "_(end of session-hooks recovery 0123abcd)_\n"} {
		if !strings.Contains(got, keep) {
			t.Errorf("the cut lost %q", keep)
		}
	}
}

func TestReceiptStatusFromTheMarkersFound(t *testing.T) {
	for _, tt := range []struct {
		start, end bool
		want       string
	}{{true, true, "delivered"}, {false, true, "delivered"}, {true, false, "cut"}, {false, false, "missing"}} {
		if got := receiptStatus(tt.start, tt.end); got != tt.want {
			t.Errorf("start %v end %v: %s", tt.start, tt.end, got)
		}
	}
}

// The first run after a recovery looks for it in the transcript once and
// records what became of it.
func TestTheNextRunRecordsTheRecoverysReceipt(t *testing.T) {
	dir := project(t)
	d := logs.DirFor(dir)
	s := state.Start(d, "s1", "", clock)
	s.PendingReceipt = "0123abcd"
	if err := s.Save(d); err != nil {
		t.Fatal(err)
	}
	tr := filepath.Join(dir, "t.jsonl")
	os.WriteFile(tr, []byte(`{"type":"attachment","attachment":{"type":"hook_success","content":"`+
		receiptStart("0123abcd")+` … Output too large"}}`+"\n"), 0o600)
	for range 2 {
		var out strings.Builder
		Execute(payload(dir, "SessionEnd", `,"reason":"other","transcript_path":"`+tr+`"`), &out, rowOf(t, "end"),
			Options{Deadline: 5 * time.Second, Now: func() time.Time { return clock }, Getenv: func(string) string { return "" }})
	}
	all, err := events.Read(d)
	if err != nil || len(all) != 2 {
		t.Fatalf("%d events, %v", len(all), err)
	}
	if r := all[0].Receipt; r == nil || r.Status != "cut" || r.Nonce != "0123abcd" {
		t.Errorf("first run's receipt %+v", r)
	}
	if all[1].Receipt != nil {
		t.Errorf("the receipt was recorded twice: %+v", all[1].Receipt)
	}
}

func TestRecoverySaysTheTaskListIsOlderThanTheRequestAndGivesThePlan(t *testing.T) {
	r := sampleRecovery()
	r.Facts.TasksStale, r.Facts.PermissionMode = true, "plan"
	r.Facts.Plan = &facts.Plan{Text: "1. lexer\n2. parser", Approved: true}
	got := renderRecovered(r, 9000)
	for _, w := range []string{"**The plan (approved by the user):**\n\n> 1. lexer\n> 2. parser\n", "**Plan mode** was on",
		"**Task list, before the compaction:**\n\n_Last changed before the user's last request: it may not reflect that request._"} {
		if !strings.Contains(got, w) {
			t.Errorf("no %q in:\n%s", w, got)
		}
	}
	if got := renderRecovered(sampleRecovery(), 9000); strings.Contains(got, "may not reflect") || strings.Contains(got, "plan") {
		t.Errorf("a current task list, and no plan, were qualified:\n%s", got)
	}
}

func TestBeforeComparesTranscriptTimestamps(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"2026-11-24T10:01:00.000Z", "2026-11-24T10:05:00.000Z", true},
		{"2026-11-24T10:05:00.000Z", "2026-11-24T10:01:00.000Z", false},
		{"", "2026-11-24T10:05:00.000Z", false},
		{"2026-11-24T10:01:00.000Z", "not a time", false},
	} {
		if got := before(tt.a, tt.b); got != tt.want {
			t.Errorf("before(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}

func TestPreCompactPrintsAShortListNotTheSnapshotAgain(t *testing.T) {
	s := *sampleRecovery().Facts
	s.LastPrompt = strings.Repeat("please refactor the loader ", 60)
	for i := range 40 {
		s.Tasks = append(s.Tasks, facts.Task{Content: fmt.Sprintf("task %d", i), Status: "pending"})
		s.FilesTouched = append(s.FilesTouched, fmt.Sprintf("src/file%d.go", i))
	}
	got := renderKeepList(s, []string{"log not written: disk full"})
	if logs.Len(got) > keepBudget {
		t.Errorf("%d characters, over %d:\n%s", logs.Len(got), keepBudget, got)
	}
	for _, w := range []string{"When you write the summary, keep these facts", "- the user's last request: `please refactor the loader",
		"- open tasks: `Rewrite the lexer`; `task 0`; `task 1`; `task 2` (and 37 more)", "- files written: `src/lexer.go`; `src/file0.go`"} {
		if !strings.Contains(got, w) {
			t.Errorf("no %q in:\n%s", w, got)
		}
	}
	if strings.Contains(got, "I chose design 3") {
		t.Errorf("the agent's texts are the recovery's, not the summariser's:\n%s", got)
	}
	short := renderKeepList(facts.Snapshot{Branch: "main", Uncommitted: []string{"a"}, Notes: []string{"Transcript not read: x."}}, nil)
	if want := summaryInstruction + "\n- branch `main`, 1 uncommitted file(s)\n- (session-hooks: Transcript not read: x.)\n"; short != want {
		t.Errorf("got %q\nwant %q", short, want)
	}
}
