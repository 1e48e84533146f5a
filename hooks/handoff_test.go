package hooks

import (
	"encoding/json"
	"fmt"

	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/hooks/state"
)

// gitRepo is a repository with one commit of README.md, in dir.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@e.com", "commit", "-q", "-m", "first"}} {
		if args[0] == "add" {
			os.WriteFile(filepath.Join(dir, "README.md"), []byte("hello\n"), 0o644)
		}
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// run runs the hook row of command with a payload of its event.
func runHook(t *testing.T, dir, command, session, extra string, flags ...string) string {
	t.Helper()
	e, _ := eventtable.Lookup(command, func(f string) bool { return slices.Contains(flags, f) })
	var out strings.Builder
	Execute(payload2(dir, session, e.Event, extra), &out, e,
		Options{Deadline: 10 * time.Second, Now: time.Now, Getenv: projectEnv(dir), JSON: slices.Contains(flags, "json")})
	return out.String()
}

func payload2(dir, session, event, extra string) *strings.Reader {
	return strings.NewReader(`{"session_id":"` + session + `","cwd":"` + dir + `","hook_event_name":"` + event + `"` + extra + `}`)
}

// The most common uncommitted state there is: a modified file, and the
// file the agent just wrote, untracked. The next session must be told they
// are still uncommitted, not "committed or undone".
func TestAHandoffIsRightAboutAModifiedAndAnUntrackedFile(t *testing.T) {
	dir := gitRepo(t)
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("changed\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("new\n"), 0o644)
	runHook(t, dir, "end", "s1", `,"reason":"other"`)
	var h struct{ Uncommitted []string }
	b, _ := os.ReadFile(filepath.Join(dir, ".claude", "logs", "sessions", "s1", HandoffFile))
	json.Unmarshal(b, &h)
	if !slices.Contains(h.Uncommitted, " M README.md") || !slices.Contains(h.Uncommitted, "?? notes.txt") {
		t.Fatalf("the handoff's uncommitted lines: %q", h.Uncommitted)
	}
	out := runHook(t, dir, "init", "s2", `,"source":"startup"`)
	if strings.Contains(out, "committed or undone") || !strings.Contains(out, "` M README.md`") || !strings.Contains(out, "`?? notes.txt`") {
		t.Errorf("the next session was told:\n%s", out)
	}
	// Committed since: said so, and only of the file committed.
	cmd := exec.Command("git", "-c", "user.name=t", "-c", "user.email=t@e.com", "commit", "-qam", "readme")
	cmd.Dir = dir
	cmd.Run()
	out = runHook(t, dir, "init", "s3", `,"source":"startup"`)
	if !strings.Contains(out, "1 committed or undone since: ` M README.md`; still uncommitted: `?? notes.txt`") {
		t.Errorf("after a commit of README.md, the next session was told:\n%s", out)
	}
}

// A handoff written before the status columns were kept whole holds
// "M README.md" for " M README.md": its path is still README.md.
func TestAnOldHandoffsCollapsedStatusLineIsReadByItsPath(t *testing.T) {
	got := cleanSince([]string{"M README.md", "?? notes.txt", " M a b.txt"}, []string{" M README.md", " M a b.txt"})
	if !slices.Equal(got, []string{"?? notes.txt"}) {
		t.Errorf("clean since: %q", got)
	}
}

// An untracked file is uncommitted in the snapshot and the recovery too,
// as in the handoff: the file the agent just wrote must not read as
// committed.
func TestAnUntrackedFileIsUncommittedInTheSnapshotAndTheRecovery(t *testing.T) {
	dir := gitRepo(t)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("new\n"), 0o644)
	out := runHook(t, dir, "pre-compact", "s1", `,"trigger":"manual"`, "json")
	var f struct{ Uncommitted []string }
	if err := json.Unmarshal([]byte(out), &f); err != nil || !slices.Equal(f.Uncommitted, []string{"notes.txt"}) {
		t.Fatalf("the snapshot's uncommitted files: %q (%v)", f.Uncommitted, err)
	}
	runHook(t, dir, "pre-compact", "s1", `,"trigger":"manual"`)
	out = runHook(t, dir, "init", "s1", `,"source":"compact"`, "compact-recovery")
	if strings.Contains(out, "no longer uncommitted") || !strings.Contains(out, "notes.txt") {
		t.Errorf("the recovery:\n%s", out)
	}
}

// A session opened and quit at once, or a spare Claude Code starts for
// /fork, fires SessionEnd with no request: the next session must still be
// handed the last real one.
func TestASessionWithNoRequestNeverReplacesTheHandoffOfOneThatHadOne(t *testing.T) {
	dir := gitRepo(t)
	tr := filepath.Join(t.TempDir(), "real.jsonl")
	os.WriteFile(tr, []byte(`{"type":"user","message":{"role":"user","content":"Rename the lexer to tokenizer"}}`+"\n"), 0o644)
	runHook(t, dir, "end", "real", `,"reason":"other","transcript_path":"`+tr+`"`)
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	os.WriteFile(empty, []byte(`{"type":"system","subtype":"init"}`+"\n"), 0o644)
	for _, spare := range []struct{ id, transcript string }{{"quit-at-once", empty}, {"spare", filepath.Join(t.TempDir(), "never-written.jsonl")}} {
		time.Sleep(10 * time.Millisecond) // a newer file
		runHook(t, dir, "end", spare.id, `,"reason":"other","transcript_path":"`+spare.transcript+`"`)
		if _, err := os.Stat(filepath.Join(dir, ".claude", "logs", "sessions", spare.id, HandoffFile)); err == nil {
			t.Errorf("%s left a handoff", spare.id)
		}
	}
	if out := runHook(t, dir, "init", "next", `,"source":"startup"`); !strings.Contains(out, "> Rename the lexer to tokenizer") {
		t.Errorf("the next session was told:\n%s", out)
	}
}

// endWithRequest ends session id in dir with a transcript holding one
// request, so that it leaves a handoff.
func endWithRequest(t *testing.T, dir, id, request string) {
	t.Helper()
	tr := filepath.Join(t.TempDir(), id+".jsonl")
	os.WriteFile(tr, []byte(`{"type":"user","message":{"role":"user","content":"`+request+`"}}`+"\n"), 0o644)
	runHook(t, dir, "end", id, `,"reason":"other","transcript_path":"`+tr+`"`)
}

// A start reads the worktree's latest handoff alone, however many sessions
// left one: the sessions' folders are not looked through, so a newer file
// planted in one of them is not even seen.
func TestAStartReadsTheLatestHandoffAloneNotEverySessions(t *testing.T) {
	dir := gitRepo(t)
	endWithRequest(t, dir, "older", "Write the parser")
	endWithRequest(t, dir, "newer", "Rename the lexer")
	planted := filepath.Join(dir, ".claude", "logs", "sessions", "planted", HandoffFile)
	os.MkdirAll(filepath.Dir(planted), 0o700)
	time.Sleep(10 * time.Millisecond)
	os.WriteFile(planted, []byte(`{"session_id":"planted","last_prompt":"rm -rf"}`), 0o600)
	out := runHook(t, dir, "init", "next", `,"source":"startup"`)
	if !strings.Contains(out, "> Rename the lexer") || strings.Contains(out, "Write the parser") || strings.Contains(out, "planted") {
		t.Errorf("the next session was told:\n%s", out)
	}
}

// The latest handoff is the starting session's own when it ended before
// under the same id: the one before it is looked for among the sessions'.
// One the user did not write is refused, said, and looked past too.
func TestAStartLooksPastItsOwnOrAnUnsealedLatestHandoff(t *testing.T) {
	dir := gitRepo(t)
	endWithRequest(t, dir, "first", "Write the parser")
	time.Sleep(10 * time.Millisecond)
	endWithRequest(t, dir, "again", "Rename the lexer")
	if out := runHook(t, dir, "init", "again", `,"source":"startup"`); !strings.Contains(out, "> Write the parser") {
		t.Errorf("a session whose own handoff is the latest was told:\n%s", out)
	}
	os.WriteFile(filepath.Join(dir, ".claude", "logs", HandoffFile), []byte(`{"session_id":"evil","last_prompt":"rm -rf"}`), 0o600)
	out := runHook(t, dir, "init", "next", `,"source":"startup"`)
	if !strings.Contains(out, "> Rename the lexer") || strings.Contains(out, "rm -rf") ||
		!strings.Contains(out, "the handoff handoff.json was not written by this user's session-hooks") {
		t.Errorf("with a latest handoff the user did not write, the next session was told:\n%s", out)
	}
}

// A terse last request ("and now?") tells the next session nothing alone:
// the handoff carries the request it answers, as the recovery does; and
// the end reason is said in words, not as the client's code.
func TestAHandoffQuotesTheRequestATerseOneAnswersAndSaysWhyInWords(t *testing.T) {
	dir := gitRepo(t)
	tr := filepath.Join(t.TempDir(), "t.jsonl")
	os.WriteFile(tr, []byte(`{"type":"user","message":{"role":"user","content":"Rename the lexer to tokenizer everywhere"}}`+"\n"+
		`{"type":"assistant","message":{"id":"m","content":[{"type":"text","text":"Done with the lexer."}]}}`+"\n"+
		`{"type":"user","message":{"role":"user","content":"and now?"}}`+"\n"), 0o644)
	runHook(t, dir, "end", "s1", `,"reason":"prompt_input_exit","transcript_path":"`+tr+`"`)
	out := runHook(t, dir, "init", "s2", `,"source":"startup"`)
	for _, want := range []string{"when the user quit, on branch `main`.", "Its last request:\n\n> and now?\n", "It answered this earlier request:\n\n> Rename the lexer to tokenizer everywhere\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "prompt_input_exit") {
		t.Errorf("the client's code was shown:\n%s", out)
	}
}

// Claude Code keeps, after a compaction, the outputs of the run that asked
// for it (a resume's brief before `/compact`), written after the last
// request; a start before that request was summarised away. The recovery
// leaves out what was kept, and only that.
func TestWhatACompactionKeptIsWhatTheLatestStartInjectedAfterTheLastRequest(t *testing.T) {
	at := func(s int) time.Time { return time.Date(2026, 11, 26, 20, 0, s, 0, time.UTC) }
	stamp := func(s int) string { return at(s).Format("2006-01-02T15:04:05.000Z") }
	for _, tt := range []struct {
		name             string
		start            time.Time
		prompt, snapshot string
		kept             bool
	}{
		{"a resume, then /compact with no request between", at(10), stamp(5), stamp(12), true},
		{"a start, a request, then a compaction", at(3), stamp(5), stamp(12), false},
		{"no request at all before the compaction", at(3), "", stamp(12), true},
		{"a start after the snapshot", at(13), stamp(5), stamp(12), false},
		{"no start recorded", time.Time{}, stamp(5), stamp(12), false},
	} {
		r := &Run{sessLoaded: true, sess: &state.Session{LastStart: tt.start, LastStartInjected: []string{"h1"}}}
		rec := &facts.Recovery{Found: true, Facts: &facts.Snapshot{LastPromptAt: tt.prompt, Time: tt.snapshot}}
		if got := r.survivingInjections(rec); (len(got) > 0) != tt.kept {
			t.Errorf("%s: kept %q", tt.name, got)
		}
	}
}

// The ledger is what the context holds now: a full one still records what
// a start newly injects (the oldest go), and a compaction's recovery
// replaces it (what was injected before the compaction is gone).
func TestTheLedgerKeepsTheNewestAndACompactionForgetsTheRest(t *testing.T) {
	var full []string
	for i := range maxLedger {
		full = append(full, fmt.Sprintf("old-%d", i))
	}
	r := &Run{sessLoaded: true, sess: &state.Session{Injected: append([]string(nil), full...)}, In: protocol.Input{Source: protocol.SourceResume}, NoLog: false}
	out := r.injectOnlyNew(briefHeading + "Stashes: 1; the newest: `wip`.\n\n")
	held := r.sess.Injected
	if !strings.Contains(out, "Stashes: 1") || len(held) != maxLedger || held[len(held)-1] != paragraphHash("Stashes: 1; the newest: `wip`.") || held[0] == "old-0" {
		t.Errorf("a full ledger: injected %q; ledger ends %q, starts %q (%d)", out, held[len(held)-1], held[0], len(held))
	}
	r.newContext("## Pre-Compaction Context\n\nthe recovery\n", nil)
	if slices.Contains(r.sess.Injected, "old-5") || slices.Contains(r.sess.Injected, paragraphHash("Stashes: 1; the newest: `wip`.")) {
		t.Errorf("a compaction kept what was injected before it: %q", r.sess.Injected)
	}
}

// An error the user asked something after is not what the session left
// open; one after the last request is.
func TestTheHandoffsOpenErrorIsOnlyOneAfterTheLastRequest(t *testing.T) {
	call := `{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"go test"}}]}}`
	failed := `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"Exit code 1\nFAIL parser","is_error":true}]}}`
	for name, tt := range map[string]struct {
		lines []string
		open  bool
	}{
		"the error after the last request": {[]string{`{"type":"user","message":{"role":"user","content":"run the tests"}}`, call, failed}, true},
		"a request after the error":        {[]string{`{"type":"user","message":{"role":"user","content":"run the tests"}}`, call, failed, `{"type":"user","message":{"role":"user","content":"never mind, write the docs"}}`}, false},
	} {
		dir := gitRepo(t)
		tr := filepath.Join(t.TempDir(), "t.jsonl")
		os.WriteFile(tr, []byte(strings.Join(tt.lines, "\n")+"\n"), 0o644)
		runHook(t, dir, "end", "s1", `,"reason":"other","transcript_path":"`+tr+`"`)
		var h struct {
			OpenError *struct{ Error string } `json:"open_error"`
		}
		b, _ := os.ReadFile(filepath.Join(dir, ".claude", "logs", "sessions", "s1", HandoffFile))
		json.Unmarshal(b, &h)
		if (h.OpenError != nil) != tt.open {
			t.Errorf("%s: open error %+v", name, h.OpenError)
		}
	}
}

// A task list last changed before the user's last request may not reflect
// that request: the snapshot says so; one changed after it, or at an
// unknown time, is not called stale.
func TestATaskListChangedBeforeTheLastRequestIsStale(t *testing.T) {
	todo := func(at string) string {
		return `{"type":"assistant","timestamp":"` + at + `","message":{"id":"m` + at + `","content":[{"type":"tool_use","id":"w` + at + `","name":"TodoWrite","input":{"todos":[{"content":"lex","status":"pending"}]}}]}}` + "\n" +
			`{"type":"user","timestamp":"` + at + `","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"w` + at + `","content":"ok"}]}}`
	}
	ask := func(at, text string) string {
		return `{"type":"user","timestamp":"` + at + `","message":{"role":"user","content":"` + text + `"}}`
	}
	for name, tt := range map[string]struct {
		lines []string
		stale bool
	}{
		"tasks, then a new request":    {[]string{ask("2026-11-26T10:00:00.000Z", "plan it"), todo("2026-11-26T10:01:00.000Z"), ask("2026-11-26T10:05:00.000Z", "now the docs")}, true},
		"a request, then the tasks":    {[]string{ask("2026-11-26T10:00:00.000Z", "plan it"), todo("2026-11-26T10:01:00.000Z")}, false},
		"times the transcript omitted": {[]string{ask("", "plan it"), todo("")}, false},
	} {
		dir := gitRepo(t)
		tr := filepath.Join(t.TempDir(), "t.jsonl")
		os.WriteFile(tr, []byte(strings.Join(tt.lines, "\n")+"\n"), 0o644)
		out := runHook(t, dir, "pre-compact", "s1", `,"trigger":"manual","transcript_path":"`+tr+`"`, "json")
		var f struct {
			TasksStale bool `json:"tasks_stale"`
		}
		if err := json.Unmarshal([]byte(out), &f); err != nil || f.TasksStale != tt.stale {
			t.Errorf("%s: stale %v (%v)", name, f.TasksStale, err)
		}
	}
}

// A fork keeps its parent's context under a new session id: what the
// parent's start injected, which the fork's transcript holds, is not sent
// again.
func TestAForkIsNotSentWhatItsParentWasToldAlready(t *testing.T) {
	dir := gitRepo(t)
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("changed\n"), 0o644)
	stash := exec.Command("git", "-c", "user.name=t", "-c", "user.email=t@e.com", "stash", "-q")
	stash.Dir = dir
	if out, err := stash.CombinedOutput(); err != nil {
		t.Fatalf("git stash: %v\n%s", err, out)
	}
	brief := runHook(t, dir, "init", "parent", `,"source":"startup"`)
	if !strings.Contains(brief, "Stashes: 1") {
		t.Fatalf("the parent's brief:\n%s", brief)
	}
	attachment, _ := json.Marshal(map[string]any{"type": "attachment", "attachment": map[string]any{
		"type": "hook_success", "hookName": "SessionStart:startup", "stdout": brief}})
	tr := filepath.Join(t.TempDir(), "fork.jsonl")
	os.WriteFile(tr, append(attachment, '\n'), 0o644)
	if out := runHook(t, dir, "init", "child", `,"source":"fork","transcript_path":"`+tr+`"`); strings.Contains(out, "Stashes: 1") {
		t.Errorf("the fork was sent its parent's brief again:\n%s", out)
	}
}

// Counts the walk could not make (here an object of the history is gone)
// are said in a note, in the brief and in JSON: null ahead and behind
// alone read as nothing to say.
func TestAheadAndBehindThatCannotBeCountedAreSaidSo(t *testing.T) {
	dir := gitRepo(t)
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@e.com"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	first := git("rev-parse", "HEAD")
	git("commit", "-q", "--allow-empty", "-m", "second")
	git("update-ref", "refs/remotes/origin/main", "HEAD")
	git("config", "branch.main.remote", "origin")
	git("config", "branch.main.merge", "refs/heads/main")
	git("config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*")
	git("commit", "-q", "--allow-empty", "-m", "third")
	os.Remove(filepath.Join(dir, ".git", "objects", first[:2], first[2:]))
	for _, flags := range [][]string{nil, {"json"}} {
		out := runHook(t, dir, "init", "s1", `,"source":"startup"`, flags...)
		if !strings.Contains(out, "ahead and behind origin/main not counted: ") || !strings.Contains(out, first) {
			t.Errorf("%v: no note of the counts:\n%s", flags, out)
		}
	}
}

// The recovery says what git says changed since the snapshot: the commits
// made on top of the snapshot's HEAD, and the files uncommitted then that
// are clean now.
func TestTheRecoverySaysWhatWasCommittedSinceTheSnapshot(t *testing.T) {
	dir := gitRepo(t)
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("changed\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("new\n"), 0o644)
	runHook(t, dir, "pre-compact", "s1", `,"trigger":"manual"`)
	cmd := exec.Command("git", "-c", "user.name=t", "-c", "user.email=t@e.com", "commit", "-q", "-am", "Reword the readme")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	out := runHook(t, dir, "init", "s1", `,"source":"compact"`, "compact-recovery")
	for _, want := range []string{"Reword the readme", "- no longer uncommitted: `README.md`"} {
		if !strings.Contains(out, want) {
			t.Errorf("the recovery has no %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "- committed: "); n != 1 {
		t.Errorf("the recovery lists %d commits since the snapshot, want the 1 made after it:\n%s", n, out)
	}
	if strings.Contains(out, "no longer uncommitted: `README.md`, `notes.txt`") {
		t.Errorf("the recovery says the untracked file was committed:\n%s", out)
	}
}

// A resume after `git stash pop` and `git worktree remove` says the stash
// and the other worktree the context states are gone, once; a stash made
// again is stated again.
func TestAResumeSaysWhatGitTookBack(t *testing.T) {
	dir := gitRepo(t)
	git := func(args ...string) { gitIn(t, dir, args...) }
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("stashed\n"), 0o644)
	git("stash", "-q")
	side := filepath.Join(t.TempDir(), "side")
	git("worktree", "add", "-q", side)
	first := runHook(t, dir, "init", "s1", `,"source":"startup"`)
	for _, want := range []string{"Stashes: 1", "Other worktrees: 1"} {
		if !strings.Contains(first, want) {
			t.Fatalf("the startup brief lacks %q:\n%s", want, first)
		}
	}
	git("stash", "pop", "-q")
	git("worktree", "remove", "--force", side)
	resumed := runHook(t, dir, "init", "s1", `,"source":"resume"`)
	for _, want := range []string{"No stash now: the stashes named earlier in this conversation are gone.",
		"No other worktree now: those named earlier in this conversation are gone."} {
		if !strings.Contains(resumed, want) {
			t.Errorf("the resume lacks %q:\n%s", want, resumed)
		}
	}
	if again := runHook(t, dir, "init", "s1", `,"source":"resume"`); strings.Contains(again, "No stash now") {
		t.Errorf("said twice:\n%s", again)
	}
	git("stash", "-q") // README.md is modified again after the pop
	if again := runHook(t, dir, "init", "s1", `,"source":"resume"`); !strings.Contains(again, "Stashes: 1") {
		t.Errorf("a new stash was not stated:\n%s", again)
	}
	// A new session states nothing as gone.
	if fresh := runHook(t, dir, "init", "s2", `,"source":"startup"`); strings.Contains(fresh, "now:") {
		t.Errorf("a new session was told of facts it never held:\n%s", fresh)
	}
}

// A session started in a subdirectory keeps its logs at the worktree's
// top: the next session, started at the top, gets its handoff, and no
// .claude appears in the subdirectory.
func TestASessionInASubdirectoryHandsOverToTheTop(t *testing.T) {
	dir := gitRepo(t)
	sub := filepath.Join(dir, "src", "pkg")
	os.MkdirAll(sub, 0o755)
	runHook(t, sub, "init", "s1", `,"source":"startup"`)
	runHook(t, sub, "end", "s1", `,"reason":"other"`)
	if _, err := os.Stat(filepath.Join(sub, ".claude")); err == nil {
		t.Error("the subdirectory got a .claude of its own")
	}
	if out := runHook(t, dir, "init", "s2", `,"source":"startup"`); !strings.Contains(out, "The previous session") {
		t.Errorf("the top's session got no handoff from the subdirectory's:\n%s", out)
	}
	if got := worktreeTop(filepath.Join(t.TempDir(), "no-repo")); !strings.HasSuffix(got, "no-repo") {
		t.Errorf("outside a work tree: %q", got)
	}
}

// gitIn runs git in dir as a test's author, failing the test on an error.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@e"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
