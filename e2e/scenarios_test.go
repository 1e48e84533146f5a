//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/session-hooks/session-hooks/bench/repogen"
	"github.com/session-hooks/session-hooks/e2e/fakeapi"
	"github.com/tidwall/gjson"
)

// contains fails the test unless every want is in text.
func contains(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s does not contain %q", what, w)
		}
	}
	if t.Failed() {
		t.Logf("%s:\n%s", what, clip(text, 4000))
	}
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "\n…"
	}
	return s
}

// injected is the text after our SessionStart hook's marker in a request.
// Claude Code packs the outputs of several hooks and its own reminders into
// one block, so this runs on past our output: check it with strings only
// our output holds.
func injected(t *testing.T, body, source string) string {
	t.Helper()
	marker := "SessionStart:" + source + " hook success: "
	text := messagesText(body)
	i := strings.LastIndex(text, marker)
	if i < 0 {
		t.Fatalf("no %q in the request:\n%s", marker, clip(text, 3000))
	}
	return text[i+len(marker):]
}

// briefHeader starts the brief a session start injects by default.
const briefHeader = "## session-hooks: what Claude Code's git context leaves out"

// ownOutput is our hook's part of what injected returns: Claude Code puts
// its environment section right after it.
func ownOutput(injected string) string {
	if i := strings.Index(injected, "\n# Environment\n"); i >= 0 {
		return injected[:i]
	}
	return injected
}

// sessionContext is the git context Claude Code injects itself
// (its session_context: branch, main branch, git user, status, commits).
func sessionContext(t *testing.T, body string) string {
	t.Helper()
	text := messagesText(body)
	i := strings.Index(text, "# gitStatus\n")
	if i < 0 {
		t.Fatalf("no gitStatus block in the request:\n%s", clip(text, 3000))
	}
	block := text[i:]
	if j := strings.Index(block, "</system-reminder>"); j >= 0 {
		block = block[:j]
	}
	return block
}

// repeatsNothing fails when a line of our output is a line of Claude
// Code's own git context.
func repeatsNothing(t *testing.T, ours, theirs string) {
	t.Helper()
	seen := map[string]bool{}
	for _, l := range strings.Split(theirs, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			seen[l] = true
		}
	}
	for _, l := range strings.Split(ours, "\n") {
		if l = strings.TrimSpace(l); l != "" && seen[l] {
			t.Errorf("the injected line %q repeats Claude Code's own git context", l)
		}
	}
}

func TestStartupContextReachesTheFirstRequest(t *testing.T) {
	s := newSession(t)
	// With nothing Claude Code's own context leaves out (no upstream), the
	// brief is empty and nothing of ours is injected.
	s.git("config", "--unset", "branch.main.remote")
	s.claude(s.project, "-p", "hello")
	reqs := s.mainRequests()
	if len(reqs) == 0 {
		t.Fatal("no request reached the API")
	}
	if strings.Contains(messagesText(reqs[0]), briefHeader) {
		t.Errorf("an empty brief was injected:\n%s", clip(messagesText(reqs[0]), 3000))
	}
	// With an upstream, where the branch stands against it is.
	s.git("config", "branch.main.remote", "origin")
	s.git("commit", "-q", "--allow-empty", "-m", "Not pushed yet")
	first := len(s.mainRequests())
	id := s.claude(s.project, "-p", "hello again")
	reqs = s.mainRequests()[first:]
	if len(reqs) == 0 {
		t.Fatal("no request reached the API")
	}
	ctx := ownOutput(injected(t, reqs[0], "startup"))
	contains(t, "the injected context", ctx, briefHeader, "1 commit ahead and 0 commits behind `origin/main`.")
	repeatsNothing(t, ctx, sessionContext(t, reqs[0]))
	contains(t, "session-init.md", s.log("session-init.md"), "# Session Init", "Add the parser skeleton",
		"| **Session** | `"+id+"` |", "| **Source** | `startup` |")
}

func TestResumeInjectsTheBrief(t *testing.T) {
	s := newSession(t)
	id := s.claude(s.project, "-p", "hello")
	first := len(s.mainRequests())
	s.claude(s.project, "-p", "and again", "--resume", id)
	reqs := s.mainRequests()[first:]
	if len(reqs) == 0 {
		t.Fatal("the resumed session sent no request")
	}
	ctx := ownOutput(injected(t, reqs[0], "resume"))
	// The context still holds the startup's brief: the resume adds what it
	// does not, without a second heading.
	contains(t, "the resumed context", ctx, "UTC: the last reply was ", "the context holds ")
	if n := strings.Count(messagesText(reqs[0]), briefHeader); n != 1 {
		t.Errorf("the resumed request holds the brief's heading %d times", n)
	}
	if strings.Contains(ctx, "previous session") {
		t.Error("a resumed session got a handoff")
	}
	repeatsNothing(t, ctx, sessionContext(t, reqs[0]))
	contains(t, "session-init.md", s.log("session-init.md"), "| **Source** | `resume` |")
}

func TestStartupAfterAPreviousSessionGetsItsHandoff(t *testing.T) {
	s := newSession(t)
	s.api.Push(work(s.project)...)
	s.claude(s.project, "-p", "Please write notes.txt with my first notes.")
	before := len(s.mainRequests())
	s.claude(s.project, "-p", "What is next?")
	reqs := s.mainRequests()[before:]
	if len(reqs) == 0 {
		t.Fatal("the second session sent no request")
	}
	ctx := ownOutput(injected(t, reqs[0], "startup"))
	contains(t, "the second session's context", ctx, briefHeader,
		"### The previous session, as it ended (history)", "Its last request:\n\n> Please write notes.txt with my first notes.",
		"- [ ] Write notes.txt", "It left 1 uncommitted change(s): `?? notes.txt`.", "Since then: no new commit.")
	repeatsNothing(t, ctx, sessionContext(t, reqs[0]))
}

// work is a turn with text, a task and a file written.
func work(project string) []fakeapi.Reply {
	return []fakeapi.Reply{
		{Blocks: []fakeapi.Block{{Text: "I will plan the notes first."},
			{Tool: "TaskCreate", Input: map[string]any{"subject": "Write notes.txt", "description": "first notes", "activeForm": "Writing notes.txt"}}}},
		fakeapi.Tool("Write", map[string]any{"file_path": filepath.Join(project, "notes.txt"), "content": "first notes\n"}),
		fakeapi.Text("notes.txt is written; next I will commit it."),
	}
}

func TestCompactSnapshotsAndRecoversTheWork(t *testing.T) {
	s := newSession(t)
	s.api.Push(work(s.project)...)
	id := s.claude(s.project, "-p", "Please write notes.txt with my first notes.")
	s.claude(s.project, "-p", "/compact", "--resume", id)

	snap := s.log("pre-compact-state.md")
	contains(t, "pre-compact-state.md", snap, "**Trigger:** `manual`", "**Session:** `"+id+"`",
		"> notes.txt is written; next I will commit it.",
		"> Please write notes.txt with my first notes.",
		"- [ ] Write notes.txt", "- `notes.txt`")

	summaries := s.requestsOfKind("summary")
	if len(summaries) != 1 {
		t.Fatalf("%d summary requests", len(summaries))
	}
	// A manual /compact records PreCompact's stdout in the transcript,
	// where the model would read it beside the recovery: it prints
	// nothing, and the snapshot comes once, in the recovery.
	if text := messagesText(summaries[0]); strings.Contains(text, "When you write the summary") {
		t.Errorf("a manual /compact's summary request holds the keep list:\n%s", clip(text, 4000))
	}
	after := s.afterCompaction(id)
	for _, r := range s.mainRequests() {
		if text := messagesText(r); strings.Contains(text, "When you write the summary") {
			t.Errorf("PreCompact's output reached the model after a manual compaction:\n%s", clip(text, 4000))
		}
	}
	contains(t, "the first request after compaction", after,
		briefHeader, "## Pre-Compaction Context", "This is history",
		"**The user's last request, before the compaction:**\n\n> Please write notes.txt with my first notes.",
		"> notes.txt is written; next I will commit it.", "end of session-hooks recovery")
	if n := strings.Count(after, "> notes.txt is written; next I will commit it."); n != 1 {
		t.Errorf("the snapshot's lines reach the first request after compaction %d times:\n%s", n, clip(after, 4000))
	}
}

func TestAutoCompactionMidTurnRecovers(t *testing.T) {
	s := newSession(t)
	// A reply that reports ~990k tokens of context and calls a tool: the
	// turn goes on, and Claude Code compacts before its next request.
	s.api.Push(
		fakeapi.Reply{Blocks: []fakeapi.Block{{Text: "Starting on the notes."}, {Tool: "Write", Input: map[string]any{
			"file_path": filepath.Join(s.project, "notes.txt"), "content": "notes\n"}}}, InputTokens: 990000},
		fakeapi.Text("Done after the compaction."),
	)
	s.claude(s.project, "-p", "Write the notes, then finish.")
	summaries := s.requestsOfKind("summary")
	if len(summaries) != 1 {
		t.Fatalf("%d summary requests: the turn did not auto-compact", len(summaries))
	}
	// An automatic compaction's summariser gets the keep list.
	contains(t, "the summary request", messagesText(summaries[0]),
		"When you write the summary, keep these facts", "- the user's last request: `Write the notes, then finish.`")
	contains(t, "pre-compact-state.md", s.log("pre-compact-state.md"), "**Trigger:** `auto`", "> Starting on the notes.")
	var recovered bool
	seenSummary := false
	for _, r := range s.api.Requests() {
		switch r.Kind() {
		case "summary":
			seenSummary = true
		case "main":
			if seenSummary && strings.Contains(messagesText(string(r.Body)), "## Pre-Compaction Context") {
				recovered = true
			}
		}
	}
	if !recovered {
		t.Error("no request after the auto-compaction carried the snapshot")
	}
}

func TestClearStartsTheNewSessionWithoutTheOldSnapshot(t *testing.T) {
	s := newSession(t)
	s.api.Push(work(s.project)...)
	old := s.claude(s.project, "-p", "Please write notes.txt.")
	s.claude(s.project, "-p", "/compact", "--resume", old)
	s.claude(s.project, "-p", "/clear", "--resume", old)

	oldEnd := s.log("sessions/" + old + "/session-end.md")
	contains(t, "the old session's end log", oldEnd, "# Session End", "| **Session** | `"+old+"` |", "| **Reason** | `clear` |")

	init := s.log("session-init.md")
	contains(t, "session-init.md", init, "| **Source** | `clear` |")
	if strings.Contains(init, "| **Session** | `"+old+"` |") {
		t.Error("the session started by /clear kept the old session id")
	}
	if strings.Contains(init, "Pre-Compaction Context") {
		t.Error("the new session got the old session's snapshot")
	}
}

func TestSessionEndWithoutTimeoutFinishesOnALargeRepository(t *testing.T) {
	requireClaude(t)
	root := t.TempDir()
	project := filepath.Join(root, "large")
	spec := repogen.Large
	spec.Commits = 20 // the history does not matter here, the work tree does
	if err := repogen.Build(project, spec); err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, project: project, config: filepath.Join(root, "config"),
		settings: filepath.Join(project, ".claude", "settings.json")}
	s.api = fakeapi.New("summary")
	t.Cleanup(s.api.Close)
	os.MkdirAll(filepath.Dir(s.settings), 0o755)
	os.MkdirAll(s.config, 0o755)
	s.writeSettings(false) // Claude Code's default SessionEnd budget, about 1.5 s
	id := s.claude(project, "-p", "hello")
	end := s.log("session-end.md")
	contains(t, "session-end.md", end, "# Session End", "| **Session** | `"+id+"` |", " M src")
	allSucceeded(t, "session-end.md", end)
}

func TestThousandsOfUntrackedFilesStayUnderTheLimit(t *testing.T) {
	s := newSession(t)
	for i := 0; i < 5000; i++ {
		os.WriteFile(filepath.Join(s.project, fmt.Sprintf("generated-%04d.txt", i)), []byte("x"), 0o644)
	}
	s.claude(s.project, "-p", "hello")
	for _, r := range s.api.Requests() {
		if strings.Contains(string(r.Body), "Output too large") {
			t.Fatal("a request holds Claude Code's \"Output too large\" preview")
		}
	}
	ours := ownOutput(injected(t, s.mainRequests()[0], "startup"))
	contains(t, "the injected context", ours, briefHeader)
	if n := len([]rune(ours)); n > 1500 {
		t.Errorf("injected %d characters: the brief repeats the status", n)
	}
	log := s.log("session-init.md")
	contains(t, "session-init.md", log, "?? generated-0000.txt", "more\n```")
	allSucceeded(t, "session-init.md", log)
}

func TestLaunchedFromASubdirectory(t *testing.T) {
	s := newSession(t)
	sub := filepath.Join(s.project, "pkg", "inner")
	os.MkdirAll(sub, 0o755)
	os.WriteFile(filepath.Join(s.project, "top.txt"), []byte("x"), 0o644)
	s.claude(sub, "-p", "hello", "--settings", s.settings)
	contains(t, "the injected context", injected(t, s.mainRequests()[0], "startup"), briefHeader)
	// The logs are the worktree's, at its top; git's status is as git
	// prints it where the session runs.
	if _, err := os.Stat(filepath.Join(sub, ".claude")); err == nil {
		t.Error("the subdirectory got a .claude of its own")
	}
	contains(t, "session-init.md", s.log("session-init.md"), "Add the parser skeleton", "?? ../../top.txt")
}

func TestTwoSessionsAtOnceInOneProject(t *testing.T) {
	a := newSession(t)
	b := &session{t: t, project: a.project, config: a.config, settings: a.settings,
		api: fakeapi.New("summary")}
	t.Cleanup(b.api.Close)
	var ids [2]string
	var wg sync.WaitGroup
	for i, s := range []*session{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids[i] = s.claude(s.project, "-p", fmt.Sprintf("hello from session %d", i))
		}()
	}
	wg.Wait()
	if ids[0] == ids[1] {
		t.Fatal("both runs had one session id")
	}
	for i, s := range []*session{a, b} {
		contains(t, fmt.Sprintf("session %d's context", i), injected(t, s.mainRequests()[0], "startup"), briefHeader)
		contains(t, fmt.Sprintf("session %d's log", i), s.log("sessions/"+ids[i]+"/session-end.md"), "| **Session** | `"+ids[i]+"` |")
	}
	for _, name := range []string{"session-init.md", "session-end.md"} {
		log := a.log(name)
		if strings.Count(log, "\n# Session") != 0 || !strings.HasPrefix(log, "# Session") || !strings.Contains(log, "succeeded** in") {
			t.Errorf("%s is not one whole document:\n%s", name, log)
		}
	}
}

func TestStopWithUncommittedWorkBlocksOnceThenLetsThrough(t *testing.T) {
	s := newSession(t)
	s.longRunningProject()
	// The agent writes the file during the session: a file untracked
	// before it started would be the user's, not work to commit.
	s.api.Push(writeNotes(s.project), fakeapi.Text("I think I am done."), fakeapi.Text("Understood; stopping now."))

	s.claude(s.project, "-p", "Write the notes.")
	reqs := s.mainRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests: want the turn (a tool call and its result) and one continuation after the block", len(reqs))
	}
	contains(t, "the continuation", messagesText(reqs[2]), "Stop hook feedback", "Before you stop (long-running agent checks)",
		"commit your work: 1 uncommitted change(s), starting with `?? notes.txt`")
	contains(t, "session-stop.md", s.log("session-stop.md"), "**Decision:** `allow`", "a stop hook already blocked once this turn")
	contains(t, "the first request", injected(t, reqs[0], "startup"), "## Long-running agent", "features passing **0/1**", "1. `core: Write the notes`")
}

func TestSettingsWrittenByInstallWork(t *testing.T) {
	s := newSession(t)
	os.Remove(s.settings) // start from nothing: install writes it
	// The project's settings are shared: install writes the portable
	// "session-hooks", found on PATH, as a teammate's machine would.
	t.Setenv("PATH", filepath.Dir(hooksBin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	// --exec: the real Claude Code must run the exec form install writes.
	cmd := exec.Command(hooksBin, "install", "--scope", "project", "--long-running", "--exec")
	cmd.Dir = s.project
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("install: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "Installed session-hooks (session-hooks) into") {
		t.Errorf("install did not write the portable command:\n%s", out)
	}
	written, _ := os.ReadFile(s.settings)
	contains(t, "settings.json", string(written), `"command": "session-hooks",`, `"args": [`)
	id := s.claude(s.project, "-p", "hello")
	contains(t, "the injected context", injected(t, s.mainRequests()[0], "startup"), briefHeader)
	contains(t, "session-end.md", s.log("session-end.md"), "| **Session** | `"+id+"` |")
	b, _ := os.ReadFile(filepath.Join(s.project, ".gitignore"))
	if string(b) != ".claude/logs/\n" {
		t.Errorf(".gitignore: %q", b)
	}
}

// afterCompaction resumes a compacted session and returns what our
// SessionStart "compact" hook injected into its first request.
func (s *session) afterCompaction(id string) string {
	s.t.Helper()
	before := len(s.mainRequests())
	s.claude(s.project, "-p", "Carry on.", "--resume", id)
	after := s.mainRequests()[before:]
	if len(after) == 0 {
		s.t.Fatal("no request after the compaction")
	}
	return injected(s.t, after[0], "compact")
}

// allSucceeded fails unless every probe of a report succeeded, however
// many there are.
func allSucceeded(t *testing.T, what, text string) {
	t.Helper()
	m := regexp.MustCompile(`\*\*(\d+)/(\d+) succeeded\*\*`).FindStringSubmatch(text)
	if m == nil || m[1] != m[2] || m[1] == "0" {
		t.Errorf("%s: not every probe succeeded (%v):\n%s", what, m, clip(text, 3000))
	}
}

func TestForkedSessionGetsTheStartupContext(t *testing.T) {
	s := newSession(t)
	id := s.claude(s.project, "-p", "hello")
	before := len(s.mainRequests())
	forked := s.claude(s.project, "-p", "and in a fork", "--resume", id, "--fork-session")
	if forked == id {
		t.Fatal("--fork-session kept the session id")
	}
	reqs := s.mainRequests()[before:]
	if len(reqs) == 0 {
		t.Fatal("the forked session sent no request")
	}
	// The fork keeps its parent's context, brief included: it adds only
	// what that context does not hold.
	ctx := ownOutput(injected(t, reqs[0], "fork"))
	contains(t, "the forked session's context", ctx, "UTC: the last reply was ")
	if strings.Contains(ctx, "previous session") {
		t.Error("a forked session got a handoff")
	}
	text := messagesText(reqs[0])
	if n := strings.Count(text, briefHeader); n != 1 {
		t.Errorf("the fork's first request holds the brief's heading %d times", n)
	}
	if n := strings.Count(text, "Up to date with `origin/main`."); n != 1 {
		t.Errorf("the fork's first request holds the branch's standing %d times", n)
	}
	repeatsNothing(t, ctx, sessionContext(t, reqs[0]))
	contains(t, "session-init.md", s.log("session-init.md"), "| **Source** | `fork` |", "| **Session** | `"+forked+"` |")
}

func TestCompactionIsRecordedByPostCompact(t *testing.T) {
	s := newSession(t)
	s.api.Push(work(s.project)...)
	id := s.claude(s.project, "-p", "Please write notes.txt with my first notes.")
	s.claude(s.project, "-p", "/compact", "--resume", id)
	var record string
	for _, line := range strings.Split(s.log("events.jsonl"), "\n") {
		if gjson.Get(line, "subcommand").String() == "post-compact" {
			record = line
		}
	}
	if record == "" {
		t.Fatalf("no post-compact line in events.jsonl:\n%s", s.log("events.jsonl"))
	}
	c := gjson.Get(record, "compaction")
	// The fake API's summary mentions notes.txt but not the branch, the
	// open task or the request's words.
	if c.Get("trigger").String() != "manual" || c.Get("summary_chars").Int() == 0 || len(c.Get("summary_sha256").String()) != 64 {
		t.Errorf("compaction record %s", c.Raw)
	}
	lost := c.Get("lost").String()
	for _, want := range []string{"branch main", "task: Write notes.txt", "the last request"} {
		if !strings.Contains(lost, want) {
			t.Errorf("lost %s does not name %q", lost, want)
		}
	}
	if strings.Contains(lost, "file notes.txt") {
		t.Errorf("lost %s names notes.txt, which the summary mentions", lost)
	}
	contains(t, "summary", s.run("summary", "--last"), "## Lost in compaction", "branch main")
}

// A slash command and a failing command before a /compact: what reaches
// the model after it is the command as typed, the error with its command,
// and the receipt says the recovery arrived whole.
func TestRecoveryAfterASlashCommandAndAFailingCommand(t *testing.T) {
	s := newSession(t)
	os.MkdirAll(filepath.Join(s.project, ".claude", "commands"), 0o755)
	os.WriteFile(filepath.Join(s.project, ".claude", "commands", "review-pr.md"),
		[]byte("Review pull request $ARGUMENTS and report what you find.\n"), 0o644)
	s.api.Push(
		fakeapi.Tool("Bash", map[string]any{"command": "ls no-such-directory", "description": "List the PR's files"}),
		fakeapi.Text("The listing failed; the directory does not exist."),
	)
	id := s.claude(s.project, "-p", "/review-pr 123 focus on the parser")
	s.claude(s.project, "-p", "/compact", "--resume", id)
	contains(t, "the first request after compaction", s.afterCompaction(id),
		"**The user's last request, before the compaction:**\n\n> /review-pr 123 focus on the parser",
		"**Open error:** the last tool call failed: `Bash` `ls no-such-directory`",
		"> The listing failed; the directory does not exist.", "end of session-hooks recovery")
	contains(t, "summary", s.run("summary", id), "| **Recoveries** | delivered |")
}

// A tool call Claude Code refuses (headless, the tool is not allowed):
// after a /compact, the refusal comes back as the open error with the call,
// not as a request.
func TestRecoveryAfterARefusedToolCall(t *testing.T) {
	s := newSession(t)
	s.api.Push(
		fakeapi.Tool("NotebookEdit", map[string]any{"notebook_path": filepath.Join(s.project, "n.ipynb"), "new_source": "x"}),
		fakeapi.Text("The edit was refused; I will ask for permission."),
	)
	id := s.claude(s.project, "-p", "Update the notebook.")
	s.claude(s.project, "-p", "/compact", "--resume", id)
	got := s.afterCompaction(id)
	contains(t, "the first request after compaction", got,
		"**The user's last request, before the compaction:**\n\n> Update the notebook.",
		"**Open error:** the last tool call failed: `NotebookEdit`",
		"> The edit was refused; I will ask for permission.")
	if strings.Contains(got, "Files written since the previous compaction") {
		t.Error("a refused edit was listed as written")
	}
}

// longRunningProject adds a feature list, a progress file and init.sh,
// committed, so that the long-running checks apply.
func (s *session) longRunningProject() {
	os.WriteFile(filepath.Join(s.project, "feature_list.json"),
		[]byte(`[{"category":"core","description":"Write the notes","steps":["check"],"passes":false}]`), 0o644)
	os.WriteFile(filepath.Join(s.project, "claude-progress.txt"), []byte("## Session 1\nStarted.\n"), 0o644)
	os.WriteFile(filepath.Join(s.project, "init.sh"), []byte("#!/bin/sh\n"), 0o755)
	s.git("add", "-A")
	s.git("commit", "-q", "-m", "Long-running setup")
}

// After an auto-compaction the context size is unknown until the next
// reply: the recovery never shows the figure from before the compaction,
// nor an emergency drawn from it.
func TestAutoCompactionInALongRunningProjectCarriesNoStaleContext(t *testing.T) {
	s := newSession(t)
	s.longRunningProject()
	s.api.Push(
		fakeapi.Reply{Blocks: []fakeapi.Block{{Text: "Starting on the notes."}, {Tool: "Write", Input: map[string]any{
			"file_path": filepath.Join(s.project, "notes.txt"), "content": "notes\n"}}}, InputTokens: 990000},
		fakeapi.Text("Done after the compaction."),
	)
	s.claude(s.project, "-p", "Write the notes, then finish.")
	const marker = "SessionStart:compact hook success: "
	var recovery string
	for _, r := range s.mainRequests() {
		if text := messagesText(r); recovery == "" && strings.Contains(text, marker) {
			recovery = ownOutput(text[strings.LastIndex(text, marker):])
		}
	}
	if recovery == "" {
		t.Fatal("no request after the auto-compaction carried the recovery")
	}
	contains(t, "the recovery", recovery, "## Long-running agent", "features passing **0/1**")
	for _, stale := range []string{"990,000", "990000", "emergency"} {
		if strings.Contains(recovery, stale) {
			t.Errorf("the recovery carries the context from before the compaction (%q):\n%s", stale, clip(recovery, 3000))
		}
	}
}

// Stop fires at the end of every turn; a turn that a background task will
// resume is let through, even with work uncommitted.
func TestStopWithABackgroundTaskIsLetThrough(t *testing.T) {
	s := newSession(t)
	s.longRunningProject()
	s.api.Push(writeNotes(s.project),
		fakeapi.Tool("Bash", map[string]any{"command": "sleep 3", "description": "Wait in the background", "run_in_background": true}),
		fakeapi.Text("The build runs in the background; I will look at it when it is done."),
		fakeapi.Text("Done."),
	)
	s.claude(s.project, "-p", "Start the build.")
	var stops []string
	for _, line := range strings.Split(s.log("events.jsonl"), "\n") {
		if gjson.Get(line, "subcommand").String() == "stop" {
			stops = append(stops, gjson.Get(line, "decision").String())
		}
	}
	// The first turn ends with the task running: let through. When the
	// task's result wakes the session and that turn ends with the work
	// still uncommitted, the check blocks as usual.
	if len(stops) < 2 || stops[0] != "allow" || !slices.Contains(stops[1:], "block") {
		t.Fatalf("stop decisions %q, want allow (background task), then a block\n%s", stops, s.log("session-stop.md"))
	}
}

// Parallel tool calls that edit the feature list beyond "passes" get one
// warning, after the batch, that reaches the model.
func TestFeatureListEditedInABatchIsWarnedOnce(t *testing.T) {
	s := newSession(t)
	s.longRunningProject()
	s.api.Push(
		fakeapi.Reply{Blocks: []fakeapi.Block{
			{Tool: "Write", Input: map[string]any{"file_path": filepath.Join(s.project, "feature_list.json"),
				"content": `[{"category":"core","description":"Write fewer notes","steps":["check"],"passes":false}]`}},
			{Tool: "Write", Input: map[string]any{"file_path": filepath.Join(s.project, "notes.txt"), "content": "notes\n"}}}},
		fakeapi.Text("Both files are written."),
	)
	s.claude(s.project, "-p", "Write the notes.")
	reqs := s.mainRequests()
	if len(reqs) < 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	text := messagesText(reqs[1])
	if n := strings.Count(text, "The feature list was changed beyond `passes`"); n != 1 {
		t.Errorf("the warning reached the model %d times:\n%s", n, clip(text, 4000))
	}
	contains(t, "the request after the batch", text, "feature 1 (`Write the notes`) was edited")
}

// In nudge mode the stop checks reach the model as added context, once a
// turn, instead of Stop hook feedback.
func TestStopNudgeAddsContextOnce(t *testing.T) {
	s := newSession(t)
	s.longRunningProject()
	os.WriteFile(filepath.Join(s.project, ".claude", "session-hooks.json"), []byte(`{"longRunning":{"stopMode":"nudge"}}`), 0o644)
	s.git("add", ".claude/session-hooks.json")
	s.git("commit", "-q", "-m", "Nudge, do not block")
	s.api.Push(writeNotes(s.project), fakeapi.Text("I think I am done."), fakeapi.Text("Understood; committing next time."))
	s.claude(s.project, "-p", "Write the notes.")
	reqs := s.mainRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests: want the turn (a tool call and its result) and one continuation with the nudge", len(reqs))
	}
	text := messagesText(reqs[2])
	contains(t, "the continuation", text, "Before you stop, consider (long-running agent checks)", "commit your work: 1 uncommitted change(s)")
	if strings.Contains(text, "Stop hook feedback") {
		t.Error("the nudge came as Stop hook feedback, as a block does")
	}
}

// ourSegments are the outputs of ours a request holds: each SessionStart
// hook's, and PreCompact's as Claude Code records it after a manual
// /compact.
func ourSegments(text string) []string {
	markers := []string{"SessionStart:startup hook success: ", "SessionStart:resume hook success: ",
		"SessionStart:compact hook success: ", "completed successfully: When you write the summary"}
	var starts []int
	for _, m := range markers {
		for at := 0; ; {
			i := strings.Index(text[at:], m)
			if i < 0 {
				break
			}
			start := at + i + len(m)
			if strings.HasPrefix(m, "completed") {
				start = at + i + len("completed successfully: ")
			}
			starts = append(starts, start)
			at = start
		}
	}
	var out []string
	for _, s := range starts {
		seg := ownOutput(text[s:])
		for _, m := range markers { // up to the next hook's output, if any
			if i := strings.Index(seg, m); i >= 0 {
				seg = seg[:i]
			}
		}
		// Up to what Claude Code adds after it in the same message: the
		// date, a Stop hook's block (which it shows twice, as feedback
		// and as a blocking error), the end of its reminder.
		for _, end := range []string{"</local-command-stdout>", "\nToday's date is ", "\nStop hook feedback:", "</system-reminder>"} {
			if i := strings.Index(seg, end); i >= 0 {
				seg = seg[:i]
			}
		}
		out = append(out, seg)
	}
	return out
}

// A conversation as a user drives it: a start, a resume, /compact, a
// resume after it. No request holds a line of ours twice: a resume adds
// only what its context does not hold, PreCompact's recorded output is a
// short list, and the snapshot comes once, in the recovery.
func TestAConversationHearsEachThingOnce(t *testing.T) {
	s := newSession(t)
	s.git("commit", "-q", "--allow-empty", "-m", "Not pushed yet") // the brief has something to say
	s.api.Push(work(s.project)...)
	id := s.claude(s.project, "-p", "Please write notes.txt with my first notes.")
	s.claude(s.project, "-p", "And one more thing.", "--resume", id)
	s.claude(s.project, "-p", "/compact", "--resume", id)
	s.claude(s.project, "-p", "Carry on.", "--resume", id)
	reqs := s.mainRequests()
	if len(reqs) < 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, req := range reqs {
		text := messagesText(req)
		segs := ourSegments(text)
		seen := map[string]int{}
		chars := 0
		for _, seg := range segs {
			chars += len([]rune(seg))
			for _, line := range strings.Split(seg, "\n") {
				if line = strings.TrimSpace(line); len(line) >= 8 {
					seen[line]++
				}
			}
		}
		for line, n := range seen {
			if n > 1 {
				t.Errorf("request %d holds our line %d times: %q", i, n, line)
			}
		}
		t.Logf("request %d: %d output(s) of ours, %d characters", i, len(segs), chars)
	}
}

// A settings file with one comment is refused whole by the real Claude
// Code: none of its hooks run. status and doctor say it is not loaded.
func TestACommentedSettingsFileIsReportedAsNotLoaded(t *testing.T) {
	s := newSession(t)
	s.git("commit", "-q", "--allow-empty", "-m", "Not pushed yet") // the brief would have something to say
	entries := hookEntries(hooksBin, true)
	commented := "{\n  // wired by hand\n" + strings.TrimPrefix(strings.TrimSpace(entries), "{") + "\n"
	if err := os.WriteFile(s.settings, []byte(commented), 0o644); err != nil {
		t.Fatal(err)
	}
	s.claude(s.project, "-p", "hello")
	if reqs := s.mainRequests(); len(reqs) == 0 || strings.Contains(messagesText(reqs[0]), briefHeader) {
		t.Fatalf("Claude Code ran the hooks of a commented settings.json, or sent nothing")
	}
	for _, cmd := range []string{"status", "doctor"} {
		c := exec.Command(hooksBin, cmd)
		c.Dir = s.project
		out, err := c.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "not loaded by Claude Code") || !strings.Contains(string(out), "line 2: a comment") {
			t.Errorf("%s (%v) does not say the file is not loaded:\n%s", cmd, err, out)
		}
	}
}

// writeNotes is the agent writing notes.txt: work of the session's own.
func writeNotes(project string) fakeapi.Reply {
	return fakeapi.Tool("Write", map[string]any{"file_path": filepath.Join(project, "notes.txt"), "content": "uncommitted work\n"})
}

// A fork has no task directory of its own (Claude Code keeps the parent's
// under the parent's id): its handoff still carries the parent's open
// tasks, from the task calls its transcript inherited.
func TestAForkInheritsItsParentsOpenTasks(t *testing.T) {
	s := newSession(t)
	s.api.Push(work(s.project)...)
	id := s.claude(s.project, "-p", "Please write notes.txt with my first notes.")
	forked := s.claude(s.project, "-p", "and in a fork", "--resume", id, "--fork-session")
	handoff := s.log("sessions/" + forked + "/handoff.json")
	contains(t, "the fork's handoff", handoff, `"open_tasks": [`, `"content": "Write notes.txt"`)
}

// An ordinary project, as people have one: a branch ahead of its upstream
// and behind it, a modified file, an untracked note, a stash, a second
// worktree. Sessions come and go in it (a start, a handoff, a commit, a
// session in the other worktree, /compact and a resume, a fork); the
// audit checks every claim of every request against git at that moment.
func TestAnOrdinaryProjectIsToldOnlyTrueThings(t *testing.T) {
	s := newSession(t)
	os.WriteFile(filepath.Join(s.project, "README.md"), []byte("# Parser\n"), 0o644)
	s.git("add", "README.md")
	s.git("commit", "-q", "-m", "Add the README")
	s.git("update-ref", "refs/remotes/origin/main", "HEAD")
	s.git("checkout", "-q", "-b", "upstream-work")
	s.git("commit", "-q", "--allow-empty", "-m", "Their commit")
	s.git("update-ref", "refs/remotes/origin/main", "HEAD")
	s.git("checkout", "-q", "main")
	s.git("branch", "-q", "-D", "upstream-work")
	s.git("commit", "-q", "--allow-empty", "-m", "Ours 1")
	s.git("commit", "-q", "--allow-empty", "-m", "Ours 2")
	os.WriteFile(filepath.Join(s.project, "README.md"), []byte("# Parser, reworded\n"), 0o644)
	s.git("stash", "push", "-q", "-m", "wip") // tracked changes only: .claude/ is untracked
	side := filepath.Join(filepath.Dir(s.project), "side")
	s.git("worktree", "add", "-q", "-b", "side", side)
	os.WriteFile(filepath.Join(s.project, "README.md"), []byte("# Parser\n\nNotes to come.\n"), 0o644)
	os.WriteFile(filepath.Join(s.project, "draft.md"), []byte("a draft\n"), 0o644)

	s.api.Push(work(s.project)...)
	first := s.claude(s.project, "-p", "Please write notes.txt with my first notes.")
	before := len(s.mainRequests())
	s.claude(s.project, "-p", "What is next?")
	ctx := ownOutput(injected(t, s.mainRequests()[before], "startup"))
	contains(t, "the next session's brief", ctx, "2 commits ahead and 1 commit behind `origin/main`", "It left 3 uncommitted change(s): ` M README.md`")
	if strings.Contains(ctx, "committed or undone") {
		t.Errorf("a file still modified was said committed or undone:\n%s", ctx)
	}
	s.git("commit", "-q", "-m", "Update the README", "README.md")
	s.claude(s.project, "-p", "And now?")
	// The other worktree worked on another tree: none of this project's
	// sessions is its to hand on.
	before = len(s.mainRequests())
	s.claude(side, "-p", "Hello from the side worktree.")
	if ctx := messagesText(s.mainRequests()[before]); strings.Contains(ctx, "The previous session") {
		t.Errorf("the side worktree was handed another worktree's session:\n%s", clip(ctx, 3000))
	}
	s.claude(s.project, "-p", "/compact", "--resume", first)
	s.claude(s.project, "-p", "Carry on.", "--resume", first)
	s.claude(s.project, "-p", "Fork from here.", "--resume", first, "--fork-session")
}

// A resume after git took back what the context states (a stash popped, a
// worktree removed) says they are gone; the context would otherwise keep
// stating them. git status stays clean of our files throughout.
func TestAResumeSaysWhatGitTookBack(t *testing.T) {
	s := newSession(t)
	os.WriteFile(filepath.Join(s.project, "notes.txt"), []byte("notes\n"), 0o644)
	s.git("add", "notes.txt")
	s.git("commit", "-q", "-m", "Add notes")
	os.WriteFile(filepath.Join(s.project, "notes.txt"), []byte("notes, edited\n"), 0o644)
	s.git("stash", "-q")
	wt := filepath.Join(filepath.Dir(s.project), "wt")
	s.git("worktree", "add", "-q", "-b", "side", wt)
	id := s.claude(s.project, "-p", "hello")
	contains(t, "the brief", ownOutput(injected(t, s.mainRequests()[0], "startup")), "Stashes: 1;", "Other worktrees: 1:")
	s.git("stash", "pop", "-q")
	s.git("worktree", "remove", "--force", wt)
	before := len(s.mainRequests())
	s.claude(s.project, "-p", "go on", "--resume", id)
	reqs := s.mainRequests()[before:]
	if len(reqs) == 0 {
		t.Fatal("the resumed session sent no request")
	}
	contains(t, "the resume", ownOutput(injected(t, reqs[0], "resume")),
		"No stash now: the stashes named earlier in this conversation are gone.",
		"No other worktree now: those named earlier in this conversation are gone.")
	if st := s.git("status", "--porcelain", "--untracked-files=all"); strings.Contains(st, ".claude/logs") {
		t.Errorf("git status lists our files:\n%s", st)
	}
}

// doctor judges the command the client will run: installed for the
// project (session-hooks, found on PATH), with session-hooks off PATH it is
// a problem, where rehearsing its own binary said all was well.
func TestDoctorWithTheCommandOffPathIsAProblem(t *testing.T) {
	s := newSession(t)
	os.Remove(s.settings)
	onPath := "PATH=" + filepath.Dir(hooksBin) + string(os.PathListSeparator) + os.Getenv("PATH")
	cmd := exec.Command(hooksBin, "install")
	cmd.Dir = s.project
	cmd.Env = append(os.Environ(), onPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("install: %v\n%s", err, out)
	}
	cmd = exec.Command(hooksBin, "doctor")
	cmd.Dir = s.project
	cmd.Env = append(os.Environ(), "PATH=/usr/bin:/bin")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "which is not on PATH") {
		t.Errorf("doctor with session-hooks off PATH (%v):\n%s", err, out)
	}
	cmd = exec.Command(hooksBin, "doctor")
	cmd.Dir = s.project
	cmd.Env = append(os.Environ(), onPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("doctor with session-hooks on PATH (%v):\n%s", err, out)
	}
}
