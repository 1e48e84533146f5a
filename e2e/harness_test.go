//go:build e2e

// Package e2e runs the real Claude Code binary against the fake Messages API
// with session-hooks wired as users wire it, and checks what reached the
// model (the request bodies) and what was left in .claude/logs.
//
//	go test -tags e2e ./e2e
package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/e2e/fakeapi"
	"github.com/session-hooks/session-hooks/internal/testenv"
	"github.com/tidwall/gjson"
)

// claudeVersion is the Claude Code release the suite runs: the pinned one,
// from which the fixtures in testdata/ were recorded, unless
// SESSION_HOOKS_E2E_CLAUDE names another (.ci/run runs the suite again on
// the newest npm serves).
var claudeVersion = versionOf("SESSION_HOOKS_E2E_CLAUDE", "2.1.330")

// versionOf is the version the environment variable names, else pinned.
func versionOf(env, pinned string) string {
	if v := os.Getenv(env); v != "" {
		return v
	}
	return pinned
}

var (
	claudeBin   string // the claude binary, once installed
	hooksBin    string // our binary, built for the suite
	unavailable string // why the suite cannot run here
)

func TestMain(m *testing.M) {
	tmp, err := os.MkdirTemp("", "session-hooks-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	hooksBin = filepath.Join(tmp, "session-hooks")
	// The clients are cached where the user's cache is (about 380 MB,
	// installed once); the hooks the clients run make their sealing key
	// and keep the diff stat in directories of the suite's, not the user's.
	npmCache = e2eCache()
	testenv.KeepGoCache()
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(tmp, "config"))
	os.Setenv("XDG_CACHE_HOME", filepath.Join(tmp, "cache"))
	build := exec.Command("go", "build", "-o", hooksBin, "..")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building session-hooks: %v\n%s", err, out)
		os.Exit(1)
	}
	claudeBin, unavailable = ensureClaude()
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

// ensureClaude installs the pinned Claude Code with npm into a cache
// directory when it is not there yet.
func ensureClaude() (bin, unavailable string) {
	return npmBinary("Claude Code", "@anthropic-ai/claude-code", claudeVersion, "claude")
}

// npmBinary installs a pinned npm package (an agent CLI) into the suite's
// cache (SESSION_HOOKS_E2E_CACHE, else the user's cache directory) when
// it is not there yet, and returns its binary, or why it cannot be had.
func npmBinary(name, pkg, version, binName string) (bin, unavailable string) {
	return npmFile(name, pkg, version, binName, filepath.Join("node_modules", ".bin", binName))
}

// npmFile is npmBinary for the file rel below the install's prefix (a
// platform package that declares no bin), cached under key-version.
func npmFile(name, pkg, version, key, rel string) (bin, unavailable string) {
	if npmCache == "" {
		return "", "no cache directory for " + name
	}
	prefix := filepath.Join(npmCache, key+"-"+version)
	bin = filepath.Join(prefix, rel)
	if _, err := os.Stat(bin); err == nil {
		return bin, ""
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "", "npm is not installed, so " + name + " " + version + " cannot be installed"
	}
	fmt.Fprintf(os.Stderr, "installing %s %s into %s...\n", name, version, prefix)
	install := exec.Command("npm", "install", "--prefix", prefix, "--no-audit", "--no-fund", pkg+"@"+version)
	if out, err := install.CombinedOutput(); err != nil {
		return "", fmt.Sprintf("npm install failed: %v\n%s", err, out)
	}
	if _, err := os.Stat(bin); err != nil {
		return "", "npm installed no " + key + " binary at " + bin
	}
	return bin, ""
}

// npmCache is where the clients are installed, read before the suite
// points XDG_CACHE_HOME at a directory of its own.
var npmCache string

// e2eCache is SESSION_HOOKS_E2E_CACHE, else session-hooks-e2e in the
// user's cache directory ("" when there is none).
func e2eCache() string {
	if c := os.Getenv("SESSION_HOOKS_E2E_CACHE"); c != "" {
		return c
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "session-hooks-e2e")
}

// requireNPM is npmBinary once per binary for a test: it skips where the
// CLI cannot be had, and fails in CI, where the suite must run.
func requireNPM(t *testing.T, name, pkg, version, binName string) string {
	t.Helper()
	npmMu.Lock()
	r, ok := npmResults[binName]
	if !ok {
		r.bin, r.unavailable = npmBinary(name, pkg, version, binName)
		npmResults[binName] = r
	}
	npmMu.Unlock()
	if r.unavailable != "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("the %s end-to-end test cannot run in CI: %s", name, r.unavailable)
		}
		t.Skipf("%s end-to-end test skipped: %s", name, r.unavailable)
	}
	return r.bin
}

var (
	npmMu      sync.Mutex
	npmResults = map[string]struct{ bin, unavailable string }{}
)

// requireClaude skips a test where Claude Code cannot be had, except in CI,
// where the suite must run.
func requireClaude(t *testing.T) {
	t.Helper()
	if unavailable == "" {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("the end-to-end suite cannot run in CI: %s", unavailable)
	}
	t.Skipf("end-to-end test skipped: %s", unavailable)
}

// summaryReply is shaped as Claude Code asks the compaction summary to be:
// without the tags it asks again.
const summaryReply = "<analysis>The user asked for notes.</analysis>\n<summary>notes.txt was being written for the user.</summary>"

// session is one project with session-hooks wired in, a Claude Code
// configuration directory, and a fake API.
type session struct {
	t        *testing.T
	api      *fakeapi.Server
	project  string
	config   string
	settings string
	extra    []string // arguments every claude run gets (--plugin-dir)
	env      []string // variables every claude run gets, after the suite's

}

// typed is what the user typed in each project, in order: the audit's
// truth for a quoted request (two sessions in one project share it).
var (
	typedMu sync.Mutex
	typed   = map[string][]string{}
)

// typeIn records what the user typed in project: the argument after -p,
// or the one prompt given.
func typeIn(project string, args []string) {
	typedMu.Lock()
	defer typedMu.Unlock()
	for i, a := range args {
		if a == "-p" && i+1 < len(args) {
			typed[project] = append(typed[project], args[i+1])
			return
		}
	}
	if len(args) > 0 && args[0] == "run" { // opencode run [flags] message words…
		var words []string
		for i, a := range args[1:] {
			if !strings.HasPrefix(a, "-") && (i == 0 || args[i] != "-m") {
				words = append(words, a)
			}
		}
		typed[project] = append(typed[project], strings.Join(words, " "))
		return
	}
	if len(args) == 1 && !strings.HasPrefix(args[0], "-") {
		typed[project] = append(typed[project], args[0])
	}
}

// gitProject makes project a git repository with one commit and returns
// a function running a command there as the agent's user does: env added
// to this process's, bin's directory first on PATH (session-hooks, or the
// client, run by name), and each command's prompt recorded for the
// claims audit when typed. A command that fails fails the test, with its
// output.
func gitProject(t *testing.T, project, bin string, typed bool, env ...string) func(string, ...string) string {
	t.Helper()
	run := func(name string, args ...string) string {
		t.Helper()
		if typed {
			typeIn(project, args)
		}
		cmd := exec.Command(name, args...)
		cmd.Dir = project
		cmd.Env = append(append(os.Environ(), env...), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("git", "init", "-q", "-b", "main")
	run("git", "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "--allow-empty", "-m", "Start")
	return run
}

// typedIn is what the user typed in project so far.
func typedIn(project string) []string {
	typedMu.Lock()
	defer typedMu.Unlock()
	return append([]string(nil), typed[project]...)
}

// hookEntries are the settings.json entries the README tells users to add,
// with the long-running ones (they do nothing in a project without a
// feature list) and post-compact (install --post-compact).
func hookEntries(bin string, endTimeout bool) string {
	q := func(cmd string) string { b, _ := json.Marshal(bin + cmd); return string(b) }
	end := `{"type":"command","command":` + q(" end") + `,"timeout":5}`
	if !endTimeout {
		end = `{"type":"command","command":` + q(" end") + `}`
	}
	return `{"hooks":{
  "SessionStart":[
    {"matcher":"startup|resume|clear|fork","hooks":[{"type":"command","command":` + q(" init") + `,"timeout":30}]},
    {"matcher":"compact","hooks":[{"type":"command","command":` + q(" init --compact-recovery") + `,"timeout":30}]}],
  "PreCompact":[{"matcher":"","hooks":[{"type":"command","command":` + q(" pre-compact") + `,"timeout":30}]}],
  "PostCompact":[{"matcher":"","hooks":[{"type":"command","command":` + q(" post-compact") + `,"timeout":30}]}],
  "Stop":[{"matcher":"","hooks":[{"type":"command","command":` + q(" stop") + `,"timeout":30}]}],
  "PostToolBatch":[{"matcher":"","hooks":[{"type":"command","command":` + q(" post-tool") + `,"timeout":30}]}],
  "SessionEnd":[{"matcher":"","hooks":[` + end + `]}]}}`
}

// newSession makes a git repository with one commit and wires the hooks
// in its .claude/settings.json.
func newSession(t *testing.T, replies ...fakeapi.Reply) *session {
	t.Helper()
	requireClaude(t)
	root := t.TempDir()
	s := &session{t: t, project: filepath.Join(root, "proj"), config: filepath.Join(root, "config")}
	s.api = fakeapi.New(summaryReply, replies...)
	t.Cleanup(s.api.Close)
	s.api.Truth = func() []byte { return readTruth(s.project, typedIn(s.project)) }
	t.Cleanup(s.audit) // runs before the server closes
	for _, d := range []string{s.project, s.config, filepath.Join(s.project, ".claude")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.git("init", "-q", "-b", "main")
	s.git("commit", "-q", "--allow-empty", "-m", "Add the parser skeleton")
	// Pushed, as most projects are: the brief has something to say
	// (where the branch stands against its upstream).
	s.git("update-ref", "refs/remotes/origin/main", "HEAD")
	s.git("config", "branch.main.remote", "origin")
	s.git("config", "branch.main.merge", "refs/heads/main")
	s.git("config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*")
	s.settings = filepath.Join(s.project, ".claude", "settings.json")
	s.writeSettings(true)
	return s
}

func (s *session) writeSettings(endTimeout bool) {
	if err := os.WriteFile(s.settings, []byte(hookEntries(hooksBin, endTimeout)), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

func (s *session) git(args ...string) string {
	s.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = s.project
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// claude runs one `claude -p` in dir and returns its session id.
func (s *session) claude(dir string, args ...string) string {
	s.t.Helper()
	for i, a := range args {
		if a == "-p" && i+1 < len(args) {
			typeIn(s.project, args[i+1:i+2])
		}
	}
	args = append(args, "--output-format", "json", "--allowedTools", "Bash", "Write", "TaskCreate", "TaskUpdate")
	args = append(args, s.extra...)
	cmd := exec.Command(claudeBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ANTHROPIC_BASE_URL="+s.api.URL, "ANTHROPIC_API_KEY=sk-ant-test",
		"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1",
		"CLAUDE_CONFIG_DIR="+s.config)
	cmd.Env = append(cmd.Env, s.env...)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("claude %v: %v\n%s", args, err, out)
	}
	s.t.Logf("claude %s: %s", strings.Join(args[:2], " "), time.Since(start).Round(time.Millisecond))
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	id := gjson.Get(lines[len(lines)-1], "session_id").String()
	if id == "" {
		s.t.Fatalf("claude %v printed no session id:\n%s", args, out)
	}
	return id
}

// run runs session-hooks in the project, as a person would, and returns
// its stdout.
func (s *session) run(args ...string) string {
	s.t.Helper()
	cmd := exec.Command(hooksBin, args...)
	cmd.Dir = s.project
	cmd.Env = append(os.Environ(), s.env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		s.t.Fatalf("session-hooks %v: %v\n%s", args, err, stderr.String())
	}
	return string(out)
}

// mainRequests are the requests of the agent's own turns, in order.
func (s *session) mainRequests() []string {
	var out []string
	for _, r := range s.api.Requests() {
		if r.Kind() == "main" {
			out = append(out, string(r.Body))
		}
	}
	return out
}

func (s *session) requestsOfKind(kind string) []string {
	var out []string
	for _, r := range s.api.Requests() {
		if r.Kind() == kind {
			out = append(out, string(r.Body))
		}
	}
	return out
}

// log reads a file from the project's .claude/logs.
func (s *session) log(name string) string {
	s.t.Helper()
	b, err := os.ReadFile(filepath.Join(s.project, ".claude", "logs", name))
	if err != nil {
		s.t.Fatalf("log %s: %v", name, err)
	}
	return string(b)
}

// messagesText is every text the model was sent in a request, as one
// string: the system prompt and the messages' text blocks.
func messagesText(body string) string {
	var b strings.Builder
	gjson.Get(body, "system").ForEach(func(_, v gjson.Result) bool {
		b.WriteString(v.Get("text").String() + "\n")
		return true
	})
	for _, block := range blocks(body) {
		b.WriteString(block + "\n")
	}
	return b.String()
}

// blocks are the texts of a request's message content blocks, in order.
func blocks(body string) []string {
	var out []string
	gjson.Get(body, "messages").ForEach(func(_, m gjson.Result) bool {
		c := m.Get("content")
		if c.Type == gjson.String {
			out = append(out, c.String())
			return true
		}
		c.ForEach(func(_, block gjson.Result) bool {
			out = append(out, block.Get("text").String()+block.Get("content").String())
			return true
		})
		return true
	})
	return out
}

// blockedOnce checks the requests of a session whose stop the long-running
// checks blocked once (a required file missing): the reason is the second
// request's, and only its.
func blockedOnce(t *testing.T, requests []string) {
	t.Helper()
	const reason = "Before you stop (long-running agent checks)"
	if len(requests) != 2 || strings.Contains(requests[0], reason) || !strings.Contains(requests[1], reason) || !strings.Contains(requests[1], "claude-progress.txt") {
		t.Fatalf("%d requests; want the stop blocked once, its reason in the second:\n%.3000s", len(requests), strings.Join(requests, "\n"))
	}
}

// addFeatureList commits a feature list with a feature not passing: the
// long-running checks then apply, and a stop without a progress file is
// blocked.
func addFeatureList(project string, run func(string, ...string) string) {
	os.WriteFile(filepath.Join(project, "feature_list.json"), []byte(`[{"category":"c","description":"d","passes":false}]`), 0o644)
	run("git", "add", "feature_list.json")
	run("git", "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "-m", "Features")
}
