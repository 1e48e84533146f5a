package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/session-hooks/session-hooks/agent/claude"
	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/hooks/config"
	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/hooks/state"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/transcript"
)

func numbered(prefix string, n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("%s%d", prefix, i))
	}
	return out
}

// Each list the brief shows stops at its limit and says how many it
// leaves out; at the limit exactly, it leaves out none and says nothing.
func TestTheBriefsListsSayHowManyTheyLeaveOutOnlyPastTheirLimit(t *testing.T) {
	conflicted := func(n int) string {
		return briefBody(facts.Init{Start: &facts.Start{Operations: []facts.Operation{{Text: "a merge"}}, Conflicted: numbered("c", n)}}, clock)
	}
	tasks := func(n int) string {
		var h facts.Handoff
		for _, s := range numbered("task ", n) {
			h.OpenTasks = append(h.OpenTasks, facts.Task{Content: s, Status: "pending"})
		}
		return renderHandoff(h, nil, false)
	}
	uncommitted := func(n int) string {
		return renderHandoff(facts.Handoff{Uncommitted: numbered(" M f", n)}, nil, false)
	}
	diffStat := func(n int) string {
		stat := append(numbered(" f", n), fmt.Sprintf(" %d files changed", n))
		return branchStanding(facts.Git{Upstream: "origin/main", DiffStat: stat}, &facts.Start{})
	}
	tests := []struct {
		name        string
		render      func(int) string
		limit       int
		more        string // what is said of one left out
		lastShown   string // the last item shown at the limit
		firstHidden string // the item past the limit
	}{
		{"conflicted files", conflicted, 10, "… and 1 more.", "`c9`", "`c10`"},
		{"open tasks", tasks, 10, "- … and 1 more\n", "task 9", "task 10"},
		{"uncommitted changes", uncommitted, 8, " and 1 more", "f7", "f8"},
		{"files of the diff stat", diffStat, briefDiffFiles, "", " f4", " f5\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at := tt.render(tt.limit)
			if !strings.Contains(at, tt.lastShown) || strings.Contains(at, "more") {
				t.Errorf("at the limit (%d):\n%s", tt.limit, at)
			}
			past := tt.render(tt.limit + 1)
			if strings.Contains(past, tt.firstHidden) || tt.more != "" && !strings.Contains(past, tt.more) {
				t.Errorf("past the limit (%d):\n%s", tt.limit+1, past)
			}
			if tt.more == "" && strings.Contains(past, tt.lastShown) {
				t.Errorf("past the limit, the diff stat's files are not listed at all:\n%s", past)
			}
		})
	}
}

// A handoff's uncommitted line is "XY path": a path the status now shows
// is still uncommitted, whatever its letters; one it does not show is
// committed or undone since.
func TestCleanSinceComparesPathsNotLetters(t *testing.T) {
	got := cleanSince([]string{" M a.go", "?? b.go", "M  c.go", "xy", "?? "}, []string{"MM a.go", "A  b.go", "ab"})
	if len(got) != 1 || got[0] != "M  c.go" {
		t.Errorf("got %q", got)
	}
}

// What a handoff does not hold, its brief does not mention.
func TestAnEmptyHandoffListsNothing(t *testing.T) {
	got := renderHandoff(facts.Handoff{}, nil, false)
	for _, no := range []string{"Tasks it left open", "uncommitted", "Since then"} {
		if strings.Contains(got, no) {
			t.Errorf("%q in:\n%s", no, got)
		}
	}
	got = renderHandoff(facts.Handoff{Uncommitted: []string{" M a.go"}}, &facts.Since{NowClean: []string{" M a.go"}}, false)
	if !strings.Contains(got, "It left 1 uncommitted change(s); 1 committed or undone since: ` M a.go`.") || strings.Contains(got, "still uncommitted") {
		t.Errorf("all committed since:\n%s", got)
	}
}

// A diff stat of one file still has its totals said.
func TestADiffStatOfOneFileHasItsTotals(t *testing.T) {
	got := branchStanding(facts.Git{Upstream: "origin/main", DiffStat: []string{" a.go | 1 +", " 1 file changed, 1 insertion(+)"}}, &facts.Start{})
	if !strings.Contains(got, "Since the merge base: 1 file changed, 1 insertion(+).") || !strings.Contains(got, " a.go | 1 +") {
		t.Errorf("got %q", got)
	}
}

// A recovery says only what the snapshot holds: no heading over an empty
// list, no "Before that" after the only text.
func TestARecoveryHasNoEmptySections(t *testing.T) {
	rec := facts.Recovery{Found: true, Nonce: "n", Facts: &facts.Snapshot{Branch: "main", Time: "2026-11-23T11:58:30.000Z",
		AssistantTexts: []string{"the only one"}}, Since: &facts.Since{}}
	got := renderRecovered(rec, 9000)
	for _, no := range []string{"Since the snapshot", "Task list", "Before that", "Files written", "Uncommitted then", "last request"} {
		if strings.Contains(got, no) {
			t.Errorf("%q in:\n%s", no, got)
		}
	}
	if !strings.Contains(got, "**What the agent said last:**\n\n> the only one\n") || !strings.Contains(got, "Captured at 2026-11-23 11:58 UTC, just before") {
		t.Errorf("got:\n%s", got)
	}
	rec.Since = &facts.Since{NowClean: []string{"a.go"}}
	if got := renderRecovered(rec, 9000); !strings.Contains(got, "**Since the snapshot** (from git):\n- no longer uncommitted: `a.go`\n") {
		t.Errorf("a file committed since, alone:\n%s", got)
	}
	rec.Since = &facts.Since{Commits: []string{"abc1234 Fix"}}
	if got := renderRecovered(rec, 9000); !strings.Contains(got, "- committed: `abc1234 Fix`\n\n") || strings.Contains(got, "no longer uncommitted") {
		t.Errorf("a commit since, alone:\n%s", got)
	}
	rec.Facts.AssistantTexts = nil
	if got := renderRecovered(rec, 9000); strings.Contains(got, "What the agent said") {
		t.Errorf("no text, and yet:\n%s", got)
	}
}

func TestAnOperationWithoutConflictsNamesNone(t *testing.T) {
	got := briefBody(facts.Init{Start: &facts.Start{Operations: []facts.Operation{{Text: "a rebase"}}}}, clock)
	if !strings.Contains(got, "**In progress:** a rebase.\n") || strings.Contains(got, "Conflicted") {
		t.Errorf("got:\n%s", got)
	}
}

// The time a run took is said in its facts and its report as what it
// was: the same time, between zero and the deadline.
func TestInitAndEndSayHowLongTheyTook(t *testing.T) {
	for _, tc := range []struct{ command, event, extra, log string }{
		{"init", "SessionStart", `,"source":"startup"`, logs.InitLog},
		{"end", "SessionEnd", `,"reason":"exit"`, logs.EndLog},
	} {
		t.Run(tc.command, func(t *testing.T) {
			dir := project(t)
			e, _ := eventtable.Lookup(tc.command, func(string) bool { return false })
			var out strings.Builder
			Execute(payload(dir, tc.event, tc.extra), &out, e,
				Options{Deadline: 5 * time.Second, JSON: true, Now: time.Now, Getenv: func(string) string { return "" }})
			var f struct {
				DurationMS float64 `json:"duration_ms"`
			}
			if err := json.Unmarshal([]byte(out.String()), &f); err != nil || f.DurationMS <= 0 || f.DurationMS > 5000 {
				t.Fatalf("duration_ms %v (%v)", f.DurationMS, err)
			}
			report, err := os.ReadFile(filepath.Join(dir, ".claude", "logs", tc.log))
			_, took, ok := strings.Cut(string(report), "succeeded** in ")
			if err != nil || !ok {
				t.Fatalf("no duration in the report (%v):\n%s", err, report)
			}
			d, err := time.ParseDuration(strings.Fields(took)[0])
			want := time.Duration(f.DurationMS * float64(time.Millisecond))
			tolerance := time.Millisecond // printed in whole milliseconds, or tenths of a second from one second on
			if want >= time.Second {
				tolerance = 50 * time.Millisecond
			}
			if err != nil || (d-want).Abs() > tolerance {
				t.Errorf("the report says %s, the facts %s (%v)", d, want, err)
			}
		})
	}
}

// A second read cut by the deadline joins the first's note, even when
// that note is the run's first.
func TestTheFirstSkipNoteGathersTheNextOnes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := &Run{Ctx: ctx, hard: ctx, skipNote: -1}
	r.skip("reading the transcript")
	r.skip("reading the task list")
	if len(r.notes) != 1 || !strings.HasSuffix(r.notes[0], "reading the transcript, reading the task list") {
		t.Errorf("notes %q", r.notes)
	}
}

// The writes after a gathering cut by its deadline still get the time up
// to the run's hard bound.
func TestAWriteAfterTheGatheringsDeadlineStillRuns(t *testing.T) {
	gathering, cancel := context.WithCancel(context.Background())
	cancel()
	hard, cancelHard := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancelHard()
	r := &Run{Ctx: gathering, hard: hard, skipNote: -1}
	v, ok := bounded(r, func() int { time.Sleep(50 * time.Millisecond); return 7 })
	if !ok || v != 7 {
		t.Errorf("got %d, %v", v, ok)
	}
}

// The log's metadata names the platform as Node did, says where Claude
// Code runs, and says when no repository was opened.
func TestTheLogsMetadata(t *testing.T) {
	value := func(fields []logs.Field, name string) string {
		for _, f := range fields {
			if f.Name == name {
				return f.Value
			}
		}
		return ""
	}
	remote := func(v string) func(string) string {
		return func(k string) string {
			if k == claude.EnvRemote {
				return v
			}
			return ""
		}
	}
	r := &Run{Getenv: remote("true"), Start: clock}
	if m := r.meta(""); value(m, "Environment") != "Cloud" || value(m, "Git engine") != "none (repository not opened)" {
		t.Errorf("meta %+v", m)
	}
	r.Getenv = remote("")
	if m := r.meta("gitdiag"); value(m, "Environment") != "Local" || value(m, "Git engine") != "gitdiag" {
		t.Errorf("meta %+v", m)
	}
	want := map[string]string{"linux/amd64": "linux x64", "linux/arm64": "linux arm64", "linux/386": "linux ia32",
		"darwin/arm64": "darwin arm64", "windows/amd64": "win32 x64"}[runtime.GOOS+"/"+runtime.GOARCH]
	if got := platform(); want != "" && got != want {
		t.Errorf("platform %q, want %q", got, want)
	}
}

// Only the diff stat's last line is a total; a probe's time is kept in
// milliseconds.
func TestCommandsMarkTheDiffStatsTotals(t *testing.T) {
	got := commands([]facts.Probe{{Command: gitdiag.DiffStatUpstream.Command, DurationMS: 2.5}, {Command: gitdiag.StatusShort.Command}})
	if !got[0].Totals || got[1].Totals || got[0].Duration != 2500*time.Microsecond {
		t.Errorf("got %+v", got)
	}
}

// A fact is looked for by as many of its leading words as fit, exactly.
func TestLeadingWordsFitExactly(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n    int
		want string
	}{
		{"ab cd ef", 5, "ab cd"},
		{"ab cd ef", 4, "ab"},
		{"ab cd ef", 8, "ab cd ef"},
		{"abcdef gh", 3, "abcdef"}, // one word at least
		{"  ", 3, ""},
	} {
		if got := leadingWords(tt.s, tt.n); got != tt.want {
			t.Errorf("leadingWords(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

func TestThresholdsPassedAreThoseAtOrBelowTheLevel(t *testing.T) {
	for level, want := range map[string][]string{"": nil, "warn": {"warn"}, "critical": {"warn", "critical"},
		"emergency": {"warn", "critical", "emergency"}} {
		if got := passedLevels(level); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("passedLevels(%q) = %q, want %q", level, got, want)
		}
	}
}

// The brief's heading comes once, even when the output holds it twice
// and it opens the output.
func TestOnlyNewKeepsOneHeading(t *testing.T) {
	heading := strings.TrimSpace(briefHeading)
	out, _ := onlyNew(heading+"\n\nfirst\n\n"+heading+"\n\nsecond\n", nil)
	if strings.Count(out, heading) != 1 || !strings.Contains(out, "first") || !strings.Contains(out, "second") {
		t.Errorf("got %q", out)
	}
}

func TestPostCompactSaysHowLongItTook(t *testing.T) {
	dir := project(t)
	e, _ := eventtable.Lookup("post-compact", func(string) bool { return false })
	var out strings.Builder
	Execute(payload(dir, "PostCompact", `,"trigger":"auto","compact_summary":"s"`), &out, e,
		Options{Deadline: 5 * time.Second, JSON: true, Now: time.Now, Getenv: func(string) string { return "" }})
	var f struct {
		DurationMS float64 `json:"duration_ms"`
	}
	if err := json.Unmarshal([]byte(out.String()), &f); err != nil || f.DurationMS <= 0 || f.DurationMS > 5000 {
		t.Errorf("duration_ms %v (%v): %s", f.DurationMS, err, out.String())
	}
}

func TestListOfSaysHowManyMoreOnlyPastN(t *testing.T) {
	if got := listOf([]string{"a", "b"}, 2); got != "a; b" {
		t.Errorf("at n: %q", got)
	}
	if got := listOf([]string{"a", "b", "c"}, 2); got != "a; b (and 1 more)" {
		t.Errorf("past n: %q", got)
	}
}

// The keep-list for the summariser stops at its budget, exactly.
func TestTheKeepListStopsAtItsBudget(t *testing.T) {
	var s facts.Snapshot
	for i := range 200 {
		s.Notes = append(s.Notes, fmt.Sprintf("note %03d", i))
	}
	out := renderKeepList(s, nil)
	if logs.Len(out) > keepBudget {
		t.Errorf("%d characters, budget %d", logs.Len(out), keepBudget)
	}
	next := "- (session-hooks: note " + fmt.Sprintf("%03d", strings.Count(out, "(session-hooks: note ")) + ")\n"
	if logs.Len(out+next) <= keepBudget {
		t.Errorf("stopped at %d characters while the next line fitted", logs.Len(out))
	}
	if s := (facts.Snapshot{Branch: "main", Uncommitted: []string{"a"}}); !strings.Contains(renderKeepList(s, nil), "branch `main`, 1 uncommitted file(s)") {
		t.Errorf("got %q", renderKeepList(s, nil))
	}
	if s := (facts.Snapshot{Branch: "main"}); strings.Contains(renderKeepList(s, nil), "uncommitted") {
		t.Errorf("got %q", renderKeepList(s, nil))
	}
}

func TestStdinIsWaitedForAQuarterOfTheDeadlineAtMostTwoSeconds(t *testing.T) {
	if got := stdinWait(4 * time.Second); got != time.Second {
		t.Errorf("4s: %s", got)
	}
	if got := stdinWait(20 * time.Second); got != 2*time.Second {
		t.Errorf("20s: %s", got)
	}
}

// End to start: a file the previous session left uncommitted and that was
// committed since is said to be committed, not left.
func TestTheNextSessionSeesTheHandoffsFileCommittedSince(t *testing.T) {
	dir := project(t)
	git := func(args ...string) { gitIn(t, dir, args...) }
	git("add", "-A")
	git("commit", "-qm", "start")
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644)
	run := func(command, event, extra string) string {
		e, _ := eventtable.Lookup(command, func(string) bool { return false })
		var out strings.Builder
		Execute(strings.NewReader(`{"session_id":"`+command+`","cwd":"`+dir+`","hook_event_name":"`+event+`"`+extra+`}`), &out, e,
			Options{Deadline: 5 * time.Second, Now: time.Now, Getenv: func(string) string { return "" }})
		return out.String()
	}
	run("end", "SessionEnd", `,"reason":"clear"`)
	git("add", "a.go")
	git("commit", "-qm", "add a")
	if got := run("init", "SessionStart", `,"source":"startup"`); !strings.Contains(got, "It left 1 uncommitted change(s); 1 committed or undone since: `?? a.go`.") {
		t.Errorf("the brief:\n%s", got)
	}
}

// Codex says nothing of the repository at a start: its brief says what
// Claude Code's session_context would have (branch, recent commits, short
// status, the first 20 lines of it), under a heading that names Codex.
// Claude Code's brief leaves them out.
func TestTheBriefGivesAnAgentWithoutGitContextTheRepository(t *testing.T) {
	f := facts.Init{Git: facts.Git{Branch: "main", Commits: []string{"abc1234 Start"}, Status: []string{" M a.go"}}, Start: &facts.Start{}}
	got := renderBriefFor(f, clock, Codex)
	for _, want := range []string{"## session-hooks: the repository, and what Codex CLI does not say of it\n\n",
		"**Branch:** `main`. Recent commits:\n```text\nabc1234 Start\n```\n", "Uncommitted (git status --short):\n```text\n M a.go\n```\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
	if got := renderBriefFor(f, clock, Claude); got != "" {
		t.Errorf("Claude Code's brief repeats its own git context:\n%s", got)
	}
	f.Git.Status = numbered("?? f", 21)
	if got := renderBriefFor(f, clock, Codex); !strings.Contains(got, "the first 20 of 21") || strings.Contains(got, "?? f20") {
		t.Errorf("a long status:\n%s", got)
	}
	f.Git.Status, f.Git.Commits = nil, nil
	if got := renderBriefFor(f, clock, Codex); !strings.Contains(got, "**Branch:** `main`.\n\nNo uncommitted change.") {
		t.Errorf("a clean tree:\n%s", got)
	}
	heading := strings.TrimSpace(headingFor(Codex))
	if out, _ := onlyNew(heading+"\n\nx\n\n"+heading+"\n\ny\n", nil); strings.Count(out, heading) != 1 {
		t.Errorf("two Codex headings kept: %q", out)
	}
}

// The context window is the payload's model's, else the transcript's
// latest reply's, else the one the session recorded last.
func TestTheContextWindowIsTheModelsFromTheFirstPlaceThatNamesIt(t *testing.T) {
	transcript := filepath.Join(t.TempDir(), "t.jsonl")
	os.WriteFile(transcript, []byte(`{"type":"assistant","message":{"id":"m","model":"claude-sonnet-4-5[1m]","content":[],"usage":{"input_tokens":10,"output_tokens":1}}}`+"\n"), 0o600)
	none := func(string) string { return "" }
	for _, tt := range []struct {
		name string
		in   protocol.Input
		sess *state.Session
		want int
	}{
		{"the payload's", protocol.Input{Model: "claude-opus-4[1m]"}, nil, 1_000_000},
		{"the transcript's", protocol.Input{TranscriptPath: transcript}, nil, 1_000_000},
		{"the session's last", protocol.Input{}, &state.Session{Models: []string{"claude-haiku", "claude-opus-4[1m]"}}, 1_000_000},
		{"none: the configured default", protocol.Input{}, &state.Session{}, 200_000},
	} {
		r := &Run{Ctx: context.Background(), skipNote: -1, In: tt.in, sess: tt.sess, Getenv: none, Cfg: config.Defaults()}
		if got := r.context().Window; got != tt.want {
			t.Errorf("%s: window %d, want %d", tt.name, got, tt.want)
		}
	}
}

// What Claude Code says a resumed or forked session holds comes first;
// at any other start the transcript says it.
func TestContextTokensOfThePayloadCountOnResumeAndForkOnly(t *testing.T) {
	transcript := filepath.Join(t.TempDir(), "t.jsonl")
	os.WriteFile(transcript, []byte(`{"type":"assistant","message":{"id":"m","content":[],"usage":{"input_tokens":10,"output_tokens":1}}}`+"\n"), 0o600)
	five := 5
	for src, want := range map[string]int{"resume": 5, "fork": 5, "startup": 10, "clear": 10} {
		r := &Run{Ctx: context.Background(), skipNote: -1, In: protocol.Input{Source: src, ContextTokens: &five, TranscriptPath: transcript}}
		if got, known := r.contextUsage(); !known || got != want {
			t.Errorf("%s: %d (%v), want %d", src, got, known, want)
		}
	}
}

// An agent whose usage comes from the same reading as its facts (Codex,
// Gemini) has its transcript read once in a run that asks for both.
func TestATranscriptIsReadOnceForItsFactsAndItsUsage(t *testing.T) {
	reads := 0
	a := Agent{Name: "counting", Read: func(context.Context, string, transcript.Options) (*transcript.Facts, error) {
		reads++
		return &transcript.Facts{Usage: transcript.Usage{Tokens: 42, Known: true}}, nil
	}}
	r := &Run{Ctx: context.Background(), skipNote: -1, Agent: a, In: protocol.Input{TranscriptPath: "/t.jsonl"}}
	if _, err := r.readTranscript("/t.jsonl", transcript.DefaultOptions); err != nil {
		t.Fatal(err)
	}
	if got, known := r.contextUsage(); !known || got != 42 || reads != 1 {
		t.Errorf("usage %d (%v) after %d reads", got, known, reads)
	}
}

// Gemini reads a hook's context only as JSON: the reply, escapes
// included, stays within the budget, and stays JSON.
func TestAJSONContextReplyStaysWithinTheBudget(t *testing.T) {
	text := strings.Repeat("\"quoted\"\n", 1200) // 10,800 characters, each line with three escapes
	var out strings.Builder
	executeText(strings.NewReader(`{"hook_event_name":"SessionStart"}`), &out, eventtable.Event{Command: "init"}, func(*Run) string { return text },
		Options{Deadline: 5 * time.Second, NoLog: true, Agent: Gemini, Getenv: func(string) string { return "" }})
	var reply struct {
		Specific struct {
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if n := logs.Len(out.String()); n > claude.Budget {
		t.Errorf("%d characters", n)
	}
	if err := json.Unmarshal([]byte(out.String()), &reply); err != nil || len(reply.Specific.Context) < 1000 ||
		!strings.HasPrefix(text, strings.SplitN(reply.Specific.Context, "\n…", 2)[0]) {
		t.Errorf("not the cut context as JSON (%v): %.200s", err, out.String())
	}
}

// The cache goes to $XDG_CACHE_HOME/session-hooks when that is absolute
// (the XDG rule), else to the platform's user cache directory; never
// into the project.
func TestTheCacheDirIsTheUsers(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "XDG_CACHE_HOME" {
				return v
			}
			return ""
		}
	}
	if got := cacheDir(env("/c")); got != filepath.Join("/c", "session-hooks") {
		t.Errorf("absolute XDG_CACHE_HOME: %q", got)
	}
	want := ""
	if base, err := os.UserCacheDir(); err == nil {
		want = filepath.Join(base, "session-hooks")
	}
	if got := cacheDir(env("relative")); got != want {
		t.Errorf("relative XDG_CACHE_HOME: %q, want %q", got, want)
	}
}

// end starts reading the transcript beside the git probes: the handoff's
// read then waits for that one instead of reading again, and a reader
// that panics is an error, not the end of the hook.
func TestAPrefetchedTranscriptIsReadOnce(t *testing.T) {
	var calls atomic.Int32
	agent := Claude
	agent.Read = func(ctx context.Context, path string, opt transcript.Options) (*transcript.Facts, error) {
		calls.Add(1)
		if path == "panics" {
			panic("a reader bug")
		}
		return &transcript.Facts{LastPrompt: "the request in " + path}, nil
	}
	r := &Run{Ctx: context.Background(), skipNote: -1, Agent: agent}
	r.prefetchTranscript("t.jsonl", handoffTranscript)
	for range 2 {
		tf, err := r.readTranscript("t.jsonl", handoffTranscript)
		if err != nil || tf.LastPrompt != "the request in t.jsonl" {
			t.Fatalf("got %+v, %v", tf, err)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d reads, want the prefetched one only", n)
	}
	if _, err := r.readTranscript("t.jsonl", transcript.DefaultOptions); err != nil || calls.Load() != 2 {
		t.Errorf("other options: %d reads, err %v; want a second read", calls.Load(), err)
	}
	if tf, err := r.readTranscript("panics", handoffTranscript); err == nil || tf != nil {
		t.Errorf("a reader that panics gave %+v, %v", tf, err)
	}
}

// A read the deadline cut is said once: asked again, the answer is the
// same error, with no second wait and no second note.
func TestATranscriptReadCutByTheDeadlineIsNotWaitedForTwice(t *testing.T) {
	agent := Claude
	stuck := make(chan struct{})
	defer close(stuck)
	agent.Read = func(ctx context.Context, path string, opt transcript.Options) (*transcript.Facts, error) {
		<-stuck
		return &transcript.Facts{}, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	r := &Run{Ctx: ctx, hard: ctx, skipNote: -1, Agent: agent}
	for range 2 {
		if tf, err := r.readTranscript("t.jsonl", handoffTranscript); err == nil || tf != nil {
			t.Fatalf("a read past the deadline gave %+v, %v", tf, err)
		}
	}
	if len(r.notes) != 1 || strings.Count(r.notes[0], "reading the transcript") != 1 {
		t.Errorf("notes %q, want the cut read named once", r.notes)
	}
}

// end writes its three files side by side: each is written, and a failure
// is said for the file that failed, in the order the files were given.
func TestWriteLogsWritesEachFileAndNamesTheOneThatFailed(t *testing.T) {
	dir := t.TempDir()
	r := &Run{Ctx: context.Background(), skipNote: -1, Logs: logs.DirFor(dir)}
	failing := logWrite{"b.md", "b", func(string, []byte) error { return errors.New("cannot write b.md: disk full") }}
	notes := r.writeLogs(r.plainLog("a.md", "a\n"), failing, r.plainLog("c.md", "c\n"))
	if len(notes) != 1 || notes[0] != "log not written: cannot write b.md: disk full" {
		t.Errorf("notes %q", notes)
	}
	for _, name := range []string{"a.md", "c.md"} {
		if b, err := os.ReadFile(filepath.Join(dir, ".claude", "logs", name)); err != nil || len(b) == 0 {
			t.Errorf("%s: %q, %v", name, b, err)
		}
	}
	if len(r.ev.Errors) != 1 || r.ev.Errors[0].Type != "log" {
		t.Errorf("event errors %+v, want the one failure", r.ev.Errors)
	}
}

func TestWriteLogsNamesAFailureOfTheFirstFile(t *testing.T) {
	r := &Run{Ctx: context.Background(), skipNote: -1, Logs: logs.DirFor(t.TempDir())}
	failing := logWrite{"a.md", "a", func(string, []byte) error { return errors.New("cannot write a.md: disk full") }}
	if notes := r.writeLogs(failing); len(notes) != 1 || notes[0] != "log not written: cannot write a.md: disk full" {
		t.Errorf("notes %q", notes)
	}
}

// Eight files committed since are named, all of them; the ninth is "and 1
// more".
func TestTheFilesCommittedSinceAreNamedUpToEight(t *testing.T) {
	for n, tail := range map[int]string{8: "`?? f07.go`.", 9: "`?? f07.go` and 1 more."} {
		h := facts.Handoff{}
		for i := range n {
			h.Uncommitted = append(h.Uncommitted, fmt.Sprintf("?? f%02d.go", i))
		}
		got := renderHandoff(h, &facts.Since{NowClean: h.Uncommitted}, false)
		if !strings.Contains(got, fmt.Sprintf("%d committed or undone since: ", n)) || !strings.Contains(got, tail) || strings.Contains(got, "and 0 more") {
			t.Errorf("%d committed since:\n%s", n, got)
		}
	}
}

// A reply of exactly the client's budget is kept whole; one character
// more is cut within its text.
func TestAReplyOfExactlyTheBudgetIsKeptWhole(t *testing.T) {
	head := `{"decision":"block","reason":"`
	reason := func(n int) string { return strings.Repeat("x", n-len(head)-2) }
	if exact, cut := encode(Claude, "Stop", protocol.Hold(reason(claude.Budget))); cut || exact != protocol.BlockJSON(reason(claude.Budget)) {
		t.Error("a reply of exactly the budget was changed")
	}
	over, cut := encode(Claude, "Stop", protocol.Hold(reason(claude.Budget+1)))
	if !cut || logs.Len(over) > claude.Budget || !strings.HasPrefix(over, head) {
		t.Errorf("a reply over the budget was not cut within it: %d characters, cut %v", logs.Len(over), cut)
	}
}

// The event line keeps a payload field of up to maxField bytes whole, and
// cuts a longer one on a character's start, whatever the bytes.
func TestAPayloadFieldIsCutOnACharactersStart(t *testing.T) {
	exact := strings.Repeat("a", maxField)
	if field(exact) != exact {
		t.Error("a field of exactly the bound was cut")
	}
	for name, s := range map[string]string{
		"three-byte characters across the bound": strings.Repeat("€", 100),
		"bytes that start no character":          strings.Repeat("\x80", 300),
		"a megabyte of them":                     strings.Repeat("\x80", 1<<20),
		"a megabyte of words":                    strings.Repeat("word ", 1<<18),
	} {
		got := field(s)
		if len(got) > maxField+len("…") || !utf8.ValidString(got) || name != "bytes that start no character" && !strings.HasSuffix(got, "…") {
			t.Errorf("%s: %q", name, got)
		}
	}
}

// A payload field is redacted before it is cut: a token the cut goes
// through is not left in part, whatever its pattern needs whole.
func TestAPayloadFieldIsRedactedBeforeItIsCut(t *testing.T) {
	for _, at := range []int{maxField - 20, maxField - 10, maxField - 1} {
		s := strings.Repeat("a", at) + " AKIAIOSFODNN7EXAMPLE " + strings.Repeat("b", 100)
		if got := field(s); strings.Contains(got, "AKIA") || strings.Contains(got, "IOSFODNN") {
			t.Errorf("a key at byte %d left in part: %q", at, got[max(0, len(got)-40):])
		}
	}
}

// A recovery leaves out the facts the compaction kept in the context, and
// only those; with none kept it is as it was, heading and all.
func TestARecoveryLeavesOutWhatTheCompactionKept(t *testing.T) {
	out := briefHeading + "Stashes: 1; the newest: `wip`.\n\nOn branch `main`.\n\n"
	if got := withoutHeld(out, nil); got != out {
		t.Errorf("with nothing kept: %q", got)
	}
	got := withoutHeld(out, []string{paragraphHash("Stashes: 1; the newest: `wip`.")})
	if strings.Contains(got, "Stashes") || !strings.Contains(got, "On branch `main`.") {
		t.Errorf("with the stash line kept: %q", got)
	}
	if got := withoutHeld(briefHeading, nil); got != briefHeading {
		t.Errorf("a heading alone, nothing kept: %q", got)
	}
}
