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
