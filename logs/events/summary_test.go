package events

import (
	"strings"
	"testing"
	"time"
)

func TestSummarize(t *testing.T) {
	at := func(s int) time.Time { return time.Date(2026, 11, 21, 10, 0, s, 0, time.UTC) }
	tokens := 120000
	all := []Event{
		{Time: at(3), Session: "a", Subcommand: "pre-compact", Trigger: "manual", Model: "m1"},
		{Time: at(1), Session: "a", Subcommand: "init", Source: "startup", Model: "m1", Probes: []Probe{{"git status --short", 12, true}, {"git branch", 1, true}}},
		{Time: at(2), Session: "b", Subcommand: "init"},
		{Time: at(4), Session: "a", Subcommand: "stop", Decision: "block", Context: &tokens, Model: "m2"},
		{Time: at(5), Session: "a", Subcommand: "end", Reason: "other", Errors: []Error{{"log", "disk full"}}},
	}
	s, err := Summarize(all, "a")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Events) != 4 || s.Events[0].Subcommand != "init" || s.Compactions != 1 || s.Blocked != 1 ||
		*s.Context != 120000 || strings.Join(s.Models, ",") != "m1,m2" || len(s.Errors) != 1 {
		t.Errorf("got %+v", s)
	}
	md := s.Markdown()
	for _, want := range []string{"# Session a", "| **Compactions** | 1 (manual) |", "| **Model** | `m1` → `m2` |",
		"| 10:00:01 | init | startup | 0ms | 0 B | - | `git status --short` 12ms |", "- 10:00:05 end: log: disk full"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if LastSession(all) != "a" {
		t.Error("last session")
	}
	if _, err := Summarize(all, "zzz"); err == nil {
		t.Error("an unknown session summarised")
	}
}

func TestSummaryShowsWhatTheModelWasGiven(t *testing.T) {
	at := func(s int) time.Time { return time.Date(2026, 11, 21, 10, 0, s, 0, time.UTC) }
	all := []Event{
		{Time: at(1), Session: "a", Subcommand: "init", Source: "startup", Injected: "## session-hooks\n\n3 commits ahead of `origin/main`.\n"},
		{Time: at(2), Session: "a", Subcommand: "end", Reason: "other"},
	}
	s, _ := Summarize(all, "a")
	md := s.Markdown()
	if !strings.Contains(md, "## What the model was given\n\n### 10:00:01 init (startup)\n\n> ## session-hooks\n>\n> 3 commits ahead of `origin/main`.\n") {
		t.Errorf("markdown:\n%s", md)
	}
	if strings.Count(md, "### ") != 1 {
		t.Errorf("a run that gave the model nothing is listed:\n%s", md)
	}
}

// Every section a session has is rendered with its facts, and a session
// without them has none of their rows or headings: an empty section would
// read as "nothing happened" where nothing was recorded.
func TestTheSummaryRendersTheSectionsASessionHasAndOnlyThose(t *testing.T) {
	at := func(s int) time.Time { return time.Date(2026, 11, 21, 10, 0, s, 0, time.UTC) }
	full := []Event{
		{Time: at(1), Session: "a", Subcommand: "init", Model: "m1",
			Probes: []Probe{{"git status", 1000, true}, {"git log", 1000, true}, {"git branch", 3, true}}},
		{Time: at(2), Session: "a", Subcommand: "pre-compact", Trigger: "auto"},
		{Time: at(3), Session: "a", Subcommand: "post-compact", Compaction: &Compaction{Trigger: "auto", Lost: []string{"the branch", "2 files"}}},
		{Time: at(4), Session: "a", Subcommand: "pre-compact", Trigger: "manual"},
		{Time: at(5), Session: "a", Subcommand: "post-compact", Compaction: &Compaction{Trigger: "manual"}},
		{Time: at(6), Session: "a", Subcommand: "prompt", Receipt: &Receipt{Status: "delivered"}},
		{Time: at(7), Session: "a", Subcommand: "end", Errors: []Error{{"log", "disk full"}}},
	}
	s, _ := Summarize(full, "a")
	s.Ignored = 2
	md := s.Markdown()
	for _, want := range []string{
		"| **Model** | `m1` |", "| **Recoveries** | delivered |",
		"| 10:00:01 | init | - | 0ms | 0 B | - | `git status` 1.0s |",
		"## Lost in compaction", "- 2026-11-21T10:00:03Z (auto): the branch; 2 files\n", "- 2026-11-21T10:00:05Z (manual): nothing\n",
		"## Errors\n\n- 10:00:07 end: log: disk full", "2 line(s) of " + File + " were ignored",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the summary lacks %q:\n%s", want, md)
		}
	}

	bare, _ := Summarize([]Event{{Time: at(1), Session: "b", Subcommand: "init", Probes: []Probe{{"git status", 999.4, true}}}}, "b")
	md = bare.Markdown()
	for _, never := range []string{"**Model**", "**Recoveries**", "Lost in compaction", "## Errors", "ignored", "What the model was given"} {
		if strings.Contains(md, never) {
			t.Errorf("a session without it has %q:\n%s", never, md)
		}
	}
	if !strings.Contains(md, "`git status` 999ms |") {
		t.Errorf("a probe under a second is not in milliseconds:\n%s", md)
	}
}

func TestTheLastSessionIsTheNewestEventThatNamesOne(t *testing.T) {
	tests := []struct {
		name string
		all  []Event
		want string
	}{
		{"the newest event's", []Event{{Session: "a"}, {Session: "b"}}, "b"},
		{"only the first names one", []Event{{Session: "a"}, {}, {}}, "a"},
		{"none names one", []Event{{}, {}}, ""},
		{"no events", nil, ""},
	}
	for _, tt := range tests {
		if got := LastSession(tt.all); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// A client whose pre-compaction hook fires before every request (Gemini
// CLI's PreCompress) says so on each line: the summary counts the
// compactions that happened, marked by the run that found each, and no
// context size read before the last of them.
func TestTheSummaryCountsCompactionsNotPreCompactionHooks(t *testing.T) {
	at := func(s int) time.Time { return time.Date(2026, 11, 21, 10, 0, s, 0, time.UTC) }
	no, yes := false, true
	ctx := func(n int) *int { return &n }
	all := []Event{
		{Time: at(1), Session: "g", Subcommand: "pre-compact", Trigger: "auto", Compacted: &no, Context: ctx(400)},
		{Time: at(2), Session: "g", Subcommand: "pre-compact", Trigger: "auto", Compacted: &no, Context: ctx(990000)},
		{Time: at(3), Session: "g", Subcommand: "init", Compacted: &yes},
		{Time: at(4), Session: "g", Subcommand: "pre-compact", Trigger: "auto", Compacted: &no},
		// A line written before the field: a pre-compact run was one compaction.
		{Time: at(5), Session: "g", Subcommand: "pre-compact", Trigger: "manual"},
	}
	s, _ := Summarize(all, "g")
	if s.Compactions != 2 || strings.Join(s.Triggers, ",") != "-,manual" {
		t.Errorf("compactions %d %v, want 2 [- manual]", s.Compactions, s.Triggers)
	}
	if s.Context != nil {
		t.Errorf("latest context %d, read before the compaction", *s.Context)
	}
	all = append(all, Event{Time: at(6), Session: "g", Subcommand: "stop", Context: ctx(31000)})
	if s, _ = Summarize(all, "g"); s.Context == nil || *s.Context != 31000 {
		t.Errorf("latest context %v, want the one read after", s.Context)
	}
}
