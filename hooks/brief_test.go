package hooks

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/logs"
)

func intp(n int) *int    { return &n }
func boolp(b bool) *bool { return &b }

func TestHandoffSaysWhenAndWhatChangedSince(t *testing.T) {
	h := facts.Handoff{EndedAt: "2026-11-23T09:30:00.000Z", Reason: "clear", Branch: "feature/parser",
		LastPrompt: "Rename the lexer", OpenTasks: []facts.Task{{Content: "Update the docs", Status: "pending"}},
		OpenError:   &facts.ToolError{Tool: "Bash", Input: "go test ./...", Error: "FAIL lexer_test.go:9"},
		Uncommitted: []string{" M lexer.go"}, Upstream: "origin/feature/parser"}
	tests := []struct {
		name    string
		endedAt string
		since   *facts.Since
		moved   bool
		want    []string
	}{
		{"nothing since", "2026-11-23T09:30:00.000Z", &facts.Since{}, false,
			[]string{"It ended at 2026-11-23 09:30 UTC with /clear, on branch `feature/parser`.", "Since then: no new commit."}},
		{"commits and the upstream moved", "2026-11-23T09:30:00.000Z", &facts.Since{Commits: []string{"abc1234 Fix the lexer", "def5678 Start"}}, true,
			[]string{"It ended at 2026-11-23 09:30 UTC with /clear,", "Since then: 2 commits made since (newest: `abc1234 Fix the lexer`); the upstream `origin/feature/parser` moved."}},
		// A time that does not parse (a handoff edited by hand) is left out, not guessed.
		{"an unreadable end time", "yesterday\x1b[2J", nil, false, []string{"It ended with /clear,"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := h
			h.EndedAt = tt.endedAt
			got := renderHandoff(h, tt.since, tt.moved)
			for _, w := range append(tt.want, "### The previous session, as it ended (history)", "Its last request:\n\n> Rename the lexer\n",
				"- [ ] Update the docs", "Its last tool call had failed: `Bash` `go test ./...`", "It left 1 uncommitted change(s): ` M lexer.go`.") {
				if !strings.Contains(got, w) {
					t.Errorf("no %q in:\n%s", w, got)
				}
			}
		})
	}
}

func TestBranchStandingAgainstTheUpstream(t *testing.T) {
	stat := []string{" a.go | 2 +-", " b.go | 4 ++++", " 2 files changed, 5 insertions(+), 1 deletion(-)"}
	tests := []struct {
		name string
		g    facts.Git
		s    facts.Start
		want string
	}{
		{"no upstream: nothing to say", facts.Git{}, facts.Start{}, ""},
		{"gone", facts.Git{}, facts.Start{UpstreamGone: "origin/x"}, "The upstream `origin/x` is gone: its remote branch no longer exists."},
		{"even", facts.Git{Upstream: "origin/main", Ahead: intp(0), Behind: intp(0)}, facts.Start{}, "Up to date with `origin/main`."},
		{"diverged, with a short diff stat listed", facts.Git{Upstream: "origin/main", Ahead: intp(1), Behind: intp(3), DiffStat: stat}, facts.Start{},
			"1 commit ahead and 3 commits behind `origin/main`. Since the merge base: 2 files changed, 5 insertions(+), 1 deletion(-).\n```text\n a.go | 2 +-\n b.go | 4 ++++\n```"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := branchStanding(tt.g, &tt.s); got != tt.want {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
	long := append(make([]string, 0, 12), stat[:2]...)
	for range 5 {
		long = append(long, " c.go | 1 +")
	}
	long = append(long, " 7 files changed, 10 insertions(+)")
	got := branchStanding(facts.Git{Upstream: "origin/main", Ahead: intp(7), Behind: intp(0), DiffStat: long}, &facts.Start{})
	if strings.Contains(got, "c.go") || !strings.Contains(got, "7 files changed, 10 insertions(+).") {
		t.Errorf("a long diff stat was listed, or its totals lost: %q", got)
	}
}

func TestResumeLineSaysHowLongTheSessionSleptAndWhen(t *testing.T) {
	at := time.Date(2026, 11, 26, 19, 40, 12, 0, time.UTC)
	got := resumeLine(&facts.Resume{SecondsSinceLastResponse: intp(7200), PromptCacheExpired: boolp(true), ContextTokens: intp(51234)}, at)
	want := "Resumed at 2026-11-26 19:40 UTC: the last reply was 2.0h before; the prompt cache has likely expired, so the next reply re-reads the whole context; the context holds 51234 tokens."
	if got != want {
		t.Errorf("got %q", got)
	}
	// A client that says nothing of the resume (Codex, Gemini) gets no
	// bare "Resumed." line: it would state no fact.
	if got := resumeLine(&facts.Resume{}, at); got != "" {
		t.Errorf("a resume with no figure: %q", got)
	}
	// A fork is a new session: "Resumed" would say it is the old one.
	if got := resumeLine(&facts.Resume{Fork: true, ContextTokens: intp(9)}, at); got != "Forked at 2026-11-26 19:40 UTC: the context holds 9 tokens." {
		t.Errorf("a fork: %q", got)
	}
}

// The recovery says where the branch stands without the diff stat; the
// resume after it says it with: one fact, so the context holding the
// shorter statement is not sent the longer one.
func TestAShorterAndALongerStatementOfTheStandingAreOneFact(t *testing.T) {
	stat := []string{" a.go | 2 +-", " 1 file changed, 1 insertion(+), 1 deletion(-)"}
	g := facts.Git{Upstream: "origin/main", Ahead: intp(3), Behind: intp(1)}
	short := branchStanding(g, &facts.Start{})
	g.DiffStat = stat
	long := branchStanding(g, &facts.Start{})
	if short == long || paragraphHash(short) != paragraphHash(long) {
		t.Errorf("%q and %q are two facts to the ledger", short, long)
	}
	_, held := paragraphs(short)
	if out, _ := onlyNew(briefHeading+long+"\n\n", held); out != "" {
		t.Errorf("a context holding %q was sent:\n%s", short, out)
	}
	g.Ahead = intp(4)
	if moved := branchStanding(g, &facts.Start{}); paragraphHash(moved) == paragraphHash(long) {
		t.Errorf("a branch that moved is the same fact: %q", moved)
	}
	if paragraphHash("Stashes: 2; the newest: `a`.") == paragraphHash("Stashes: 3; the newest: `a`.") {
		t.Errorf("two stash counts are one fact")
	}
}

func TestBriefPutsOperationsFirstAndStaysShort(t *testing.T) {
	f := facts.Init{Git: facts.Git{Upstream: "origin/main", Ahead: intp(2), Behind: intp(0)}, Start: &facts.Start{
		Operations: []facts.Operation{{Kind: "cherry-pick", Text: "a cherry-pick of def5678 is in progress"}},
		Conflicted: []string{"a.go"}, Detached: "abc1234", Stashes: 2, NewestStash: []string{"On main: wip", "WIP on main: x"},
		Worktrees: []facts.Worktree{{Path: "/w/side", Branch: "side"}}}}
	got := renderBriefFor(f, clock, Claude)
	order := []string{"**In progress:** a cherry-pick of def5678 is in progress", "Conflicted: `a.go`.", "**HEAD is detached** at `abc1234`",
		"2 commits ahead and 0 commits behind `origin/main`.", "Stashes: 2; the newest: `On main: wip`, `WIP on main: x`.",
		"Other worktrees: 1: `/w/side` (`side`)."}
	at := 0
	for _, w := range order {
		i := strings.Index(got[at:], w)
		if i < 0 {
			t.Fatalf("missing or out of order: %q in\n%s", w, got)
		}
		at += i
	}
	if len(got) > 1500 {
		t.Errorf("%d characters", len(got))
	}
}

func TestABriefWithNothingToSayIsEmpty(t *testing.T) {
	if got := renderBriefFor(facts.Init{Git: facts.Git{Branch: "main"}, Start: &facts.Start{}}, clock, Claude); got != "" {
		t.Errorf("got %q, want nothing: no heading, no \"no upstream\"", got)
	}
	if got := renderBriefOutput(facts.Init{Start: &facts.Start{}}, logs.Report{}, clock, Claude); got != "" {
		t.Errorf("the hook would print %q", got)
	}
}

func TestARebaseOrABisectIsNotCalledADetachedHead(t *testing.T) {
	for _, kind := range []string{"rebase", "bisect"} {
		f := facts.Init{Start: &facts.Start{Detached: "abc1234", Operations: []facts.Operation{{Kind: kind, Text: "a " + kind + " is in progress"}}}}
		got := renderBriefFor(f, clock, Claude)
		if strings.Contains(got, "detached") || !strings.Contains(got, "a "+kind+" is in progress") {
			t.Errorf("%s: %q", kind, got)
		}
	}
	got := renderBriefFor(facts.Init{Start: &facts.Start{Detached: "abc1234"}}, clock, Claude)
	if !strings.Contains(got, "**HEAD is detached** at `abc1234`: new commits belong to no branch.") {
		t.Errorf("a plain detached HEAD: %q", got)
	}
}

func TestFromALinkedWorktreeTheBriefNamesItAndListsTheMainOne(t *testing.T) {
	f := facts.Init{Start: &facts.Start{Worktree: &facts.Worktree{Path: "/w/side", Branch: "side"},
		Worktrees: []facts.Worktree{{Path: "/w/main", Branch: "main", Main: true}, {Path: "/w/a", Branch: "a"}, {Path: "/w/b"}, {Path: "/w/c", Branch: "c"}}}}
	got := renderBriefFor(f, clock, Claude)
	for _, w := range []string{"This session is in the linked worktree `/w/side` (`side`).",
		"Other worktrees: 4: `/w/main` (`main`, the main worktree), `/w/a` (`a`), `/w/b` (detached), and 1 more."} {
		if !strings.Contains(got, w) {
			t.Errorf("no %q in:\n%s", w, got)
		}
	}
}

func TestAHandoffsUncommittedFilesCommittedSinceAreNotCalledUncommitted(t *testing.T) {
	h := facts.Handoff{Uncommitted: []string{" M a.go", "?? b.go", " M c.go"}}
	since := &facts.Since{NowClean: cleanSince(h.Uncommitted, []string{" M c.go", "?? new.go"})}
	got := renderHandoff(h, since, false)
	if want := "It left 3 uncommitted change(s); 2 committed or undone since: ` M a.go`, `?? b.go`; still uncommitted: ` M c.go`."; !strings.Contains(got, want) {
		t.Errorf("no %q in:\n%s", want, got)
	}
	many := facts.Handoff{}
	for i := range 33 {
		many.Uncommitted = append(many.Uncommitted, fmt.Sprintf("?? f%02d.go", i))
	}
	if got := renderHandoff(many, nil, false); !strings.Contains(got, "It left 33 uncommitted change(s): ") || !strings.Contains(got, "and 25 more.") {
		t.Errorf("a shortened list does not say how many it left out:\n%s", got)
	}
}

func TestAResumeInjectsOnlyWhatTheContextDoesNotHold(t *testing.T) {
	start := briefHeading + "Up to date with `origin/main`.\n\nStashes: 1; the newest: `On main: wip`.\n\n"
	out, held := onlyNew(start, nil)
	if out != start || len(held) != 3 {
		t.Fatalf("a new context got %q (%d recorded)", out, len(held))
	}
	resumed := briefHeading + "Up to date with `origin/main`.\n\nResumed: the last reply was 2.0h ago.\n\nStashes: 2; the newest: `On main: x`, `On main: wip`.\n\n"
	got, more := onlyNew(resumed, held)
	want := "Resumed: the last reply was 2.0h ago.\n\nStashes: 2; the newest: `On main: x`, `On main: wip`.\n\n"
	if got != want || len(more) != 2 {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, kept := onlyNew(start, held); got != "" || kept != nil {
		t.Errorf("nothing new still printed %q", got)
	}
}

func TestAHandoffsOpenTasksSayHowManyTheyLeaveOut(t *testing.T) {
	var h facts.Handoff
	for i := range 14 {
		h.OpenTasks = append(h.OpenTasks, facts.Task{Content: fmt.Sprintf("task %d", i), Status: "pending"})
	}
	if got := renderHandoff(h, nil, false); !strings.Contains(got, "- [ ] task 9\n- … and 4 more\n") {
		t.Errorf("got:\n%s", got)
	}
}

// A status cut at the deadline, or not read, is never shown as a clean
// work tree: what was seen is listed, and what is missing is said.
func TestACutStatusIsNotShownAsClean(t *testing.T) {
	const cut = "the work tree walk stopped after 0.8s, at its deadline, with 120 of 300 tracked files not compared; changes in them and untracked files may be missing"
	for _, tc := range []struct {
		name       string
		g          facts.Git
		want, dont string
	}{
		{"whole and clean", facts.Git{Branch: "main"}, "No uncommitted change.", "not known"},
		{"cut before any change was seen", facts.Git{Branch: "main", StatusIncomplete: cut}, "Uncommitted changes not known: " + cut + ".", "No uncommitted change"},
		{"cut after a change was seen", facts.Git{Branch: "main", Status: []string{" M a.go"}, StatusIncomplete: cut},
			"Uncommitted, as far as the status got (git status --short):\n```text\n M a.go\n```\n_(" + cut + ")_", "No uncommitted change"},
	} {
		out := gitContext(tc.g)
		if !strings.Contains(out, tc.want) || strings.Contains(out, tc.dont) {
			t.Errorf("%s:\n%s", tc.name, out)
		}
	}
	h := facts.Handoff{Session: "s0", EndedAt: "2026-01-01T00:00:00Z", LastPrompt: "go", UncommittedIncomplete: cut}
	if out := renderHandoff(h, nil, false); !strings.Contains(out, "What it left uncommitted is not known: "+cut) {
		t.Errorf("a handoff whose status was cut before any change:\n%s", out)
	}
	h.Uncommitted = []string{" M a.go"}
	if out := renderHandoff(h, nil, false); !strings.Contains(out, "It left at least 1 uncommitted change(s) ("+cut+")") {
		t.Errorf("a handoff whose status was cut after a change:\n%s", out)
	}
}

// A probe the deadline stopped is said as cut, not as git unreadable, and
// what was read in time (the upstream's name) stays.
func TestAProbeTheDeadlineCutIsSaidAsCut(t *testing.T) {
	g := facts.Git{Branch: "main", Upstream: "origin/main", Probes: []facts.Probe{
		{Command: "git diff --stat origin/main...HEAD", Error: "stopped after 1.2s: the hook's deadline passed"}}}
	got := briefBody(facts.Init{Git: g, Start: &facts.Start{}}, clock)
	if !strings.Contains(got, "**Not read in time:** git diff --stat origin/main...HEAD: stopped after 1.2s") ||
		strings.Contains(got, "could not be read") || !strings.Contains(got, "Compared with `origin/main`.") {
		t.Errorf("the brief:\n%s", got)
	}
	g.Probes[0].Error = "fatal: bad object"
	if got := briefBody(facts.Init{Git: g, Start: &facts.Start{}}, clock); !strings.Contains(got, "**git could not be read:** git diff --stat origin/main...HEAD: fatal: bad object") {
		t.Errorf("a failure:\n%s", got)
	}
}
