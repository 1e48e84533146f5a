// Command recordopencode records a real OpenCode session, offline against
// the fake Chat Completions API (e2e/fakechat), for the session reader's
// and the plugin's tests: a request whose replies keep a todo list, write
// a file, read one (with its folder's AGENTS.md) and a missing one, reporting a prompt near the window, so
// that OpenCode compacts; then a resumed run. The plugin install writes
// runs a recording command in place of session-hooks: each hook's stdin
// goes to payloads/<Event>.jsonl, and the session the plugin handed over
// to session-<Event>.json (the newest of each event). The bodies the
// model got go to recordopencode-requests.jsonl in the temporary
// directory, out of the fixtures (OpenCode's system prompt is its own).
//
//	go build -o /tmp/session-hooks . && go run ./e2e/recordopencode -opencode "$(npm prefix)/node_modules/.bin/opencode" -hooks /tmp/session-hooks
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/session-hooks/session-hooks/e2e/fakechat"
)

func main() {
	opencode := flag.String("opencode", "opencode", "the opencode binary")
	hooks := flag.String("hooks", "session-hooks", "the session-hooks binary that installs the plugin")
	out := flag.String("out", "testdata/opencode-1.18.33", "where the recording goes")
	flag.Parse()
	if err := record(*opencode, *hooks, *out); err != nil {
		fmt.Fprintln(os.Stderr, "recordopencode:", err)
		os.Exit(1)
	}
}

// IsSummary tells OpenCode's own requests (a title, a compaction's
// summary) by their system prompts.
func IsSummary(body []byte) bool {
	return strings.Contains(string(body), "You are a title generator") || strings.Contains(string(body), "You are a context summarization agent")
}

// Config is an OpenCode configuration whose one model is srv's.
func Config(url string) string {
	return `{"$schema":"https://opencode.ai/config.json","autoupdate":false,"share":"disabled","model":"fake/fake-model",
"provider":{"fake":{"npm":"@ai-sdk/openai-compatible","name":"Fake","options":{"baseURL":"` + url + `/v1","apiKey":"x"},
"models":{"fake-model":{"name":"Fake","tool_call":true,"limit":{"context":200000,"output":8000}}}}}}` + "\n"
}

func record(opencode, hooks, out string) error {
	out, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	payloads := filepath.Join(out, "payloads")
	if err := os.MkdirAll(payloads, 0o755); err != nil {
		return err
	}
	root, err := os.MkdirTemp("", "recordopencode-")
	if err != nil {
		return err
	}
	defer func() {
		if os.Getenv("KEEP") == "" {
			os.RemoveAll(root)
		}
	}()
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	os.MkdirAll(home, 0o700)
	os.MkdirAll(project, 0o755)
	// The recording command: the payload appended, one line each (an
	// event may fire more than once), the session copied.
	script := filepath.Join(root, "record.sh")
	os.WriteFile(script, []byte(`#!/bin/sh
in=$(cat)
ev=$(printf '%s' "$in" | sed -n 's/.*"hook_event_name":"\([A-Za-z]*\)".*/\1/p')
printf '%s\n' "$in" >> `+payloads+`/"$ev".jsonl
tp=$(printf '%s' "$in" | sed -n 's/.*"transcript_path":"\([^"]*\)".*/\1/p')
if [ -n "$tp" ]; then cp "$tp" `+root+`/session-"$ev".json; fi
`), 0o755)
	srv := fakechat.New(
		fakechat.Reply{Text: "I will write the notes first.", Calls: []fakechat.Call{{Name: "todowrite",
			Arguments: `{"todos":[{"content":"Write notes.txt","status":"in_progress","priority":"high"},{"content":"Commit the notes","status":"pending","priority":"medium"}]}`}}},
		fakechat.Reply{Calls: []fakechat.Call{{Name: "write", Arguments: `{"filePath":"` + filepath.Join(project, "notes.txt") + `","content":"notes\n"}`}}},
		// A folder's AGENTS.md rides the result of a read there, in
		// OpenCode's own <system-reminder>.
		fakechat.Reply{Calls: []fakechat.Call{{Name: "read", Arguments: `{"filePath":"` + filepath.Join(project, "docs", "guide.md") + `"}`}}},
		fakechat.Reply{Calls: []fakechat.Call{{Name: "read", Arguments: `{"filePath":"` + filepath.Join(project, "missing.txt") + `"}`}}, PromptTokens: 199000},
		fakechat.Reply{Text: "notes.txt is written; next I will commit it."},
		fakechat.Reply{Text: "Going on."},
	)
	defer srv.Close()
	srv.IsSummary = IsSummary
	srv.Summary = "## Objective\n- write the notes"
	if err := os.WriteFile(filepath.Join(project, "opencode.json"), []byte(Config(srv.URL)), 0o644); err != nil {
		return err
	}
	os.MkdirAll(filepath.Join(project, "docs"), 0o755)
	os.WriteFile(filepath.Join(project, "docs", "AGENTS.md"), []byte("Keep the docs short.\n"), 0o644)
	os.WriteFile(filepath.Join(project, "docs", "guide.md"), []byte("# Guide\n"), 0o644)
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"), "XDG_STATE_HOME="+filepath.Join(home, ".local", "state"))
	sh := func(name string, args ...string) error {
		cmd := exec.Command(name, args...)
		// OpenCode takes its directory from $PWD, which exec leaves as it was.
		cmd.Dir, cmd.Env = project, append(env, "PWD="+project)
		b, err := cmd.CombinedOutput()
		fmt.Fprintf(os.Stderr, "$ %s %s\n%s\n", name, strings.Join(args, " "), b)
		return err
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "initial commit"}} {
		if err := sh("git", args...); err != nil {
			return err
		}
	}
	if err := sh(hooks, "--agent", "opencode", "install", "--command", script); err != nil {
		return err
	}
	defer func() {
		var reqs []byte
		for _, r := range srv.Requests() {
			reqs = append(reqs, r.Body...)
			reqs = append(reqs, '\n')
		}
		os.WriteFile(filepath.Join(os.TempDir(), "recordopencode-requests.jsonl"), reqs, 0o644)
	}()
	if err := sh(opencode, "run", "-m", "fake/fake-model", "write the notes and commit them"); err != nil {
		return err
	}
	if err := copySession(root, out, "PreCompact"); err != nil {
		return err
	}
	if err := sh(opencode, "run", "-m", "fake/fake-model", "--continue", "go on"); err != nil {
		return err
	}
	return copySession(root, out, "SessionEnd")
}

// copySession keeps the session the plugin handed to event's hook, the
// temporary folder's name replaced by one that stays the same.
func copySession(root, out, event string) error {
	b, err := os.ReadFile(filepath.Join(root, "session-"+event+".json"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "session-"+event+".json"), []byte(strings.ReplaceAll(string(b), root, "/tmp/recordopencode")), 0o644)
}
