// Command recorddroid records a real Factory Droid session, offline
// against the fake Chat Completions API (e2e/fakechat), for the session
// reader's tests: a request whose replies write a file, run a command
// that fails and one that succeeds, the first reporting a prompt past
// Droid's threshold, so that Droid compacts inside the turn. Hooks on
// every event Droid fires save their stdin to payloads/<Event>.jsonl; the
// session file is copied to -out. The bodies the model got go to
// recorddroid-requests.jsonl in the temporary directory, out of the
// fixtures (Droid's system prompt is its own).
//
//	go run ./e2e/recorddroid -droid "$(npm prefix)/node_modules/@factory/cli-linux-x64/bin/droid" -out testdata/droid-0.225.2
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/session-hooks/session-hooks/e2e/fakechat"
)

func main() {
	droid := flag.String("droid", "droid", "the droid binary")
	out := flag.String("out", "testdata/droid-0.225.2", "where the session goes")
	flag.Parse()
	if err := record(*droid, *out); err != nil {
		fmt.Fprintln(os.Stderr, "recorddroid:", err)
		os.Exit(1)
	}
}

func record(droid, out string) error {
	out, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	payloads := filepath.Join(out, "payloads")
	if err := os.MkdirAll(payloads, 0o755); err != nil {
		return err
	}
	root, err := os.MkdirTemp("", "recorddroid-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(root)
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	os.MkdirAll(filepath.Join(home, ".factory"), 0o700)
	os.MkdirAll(project, 0o755)
	srv := fakechat.New(
		fakechat.Reply{Text: "I will write the notes first.", Calls: []fakechat.Call{{Name: "Create",
			Arguments: `{"file_path":"` + filepath.Join(project, "notes.txt") + `","content":"notes\n"}`}}},
		fakechat.Reply{Calls: []fakechat.Call{{Name: "Execute", Arguments: `{"command":"false"}`}}, PromptTokens: 260000},
		fakechat.Reply{Calls: []fakechat.Call{{Name: "Execute", Arguments: `{"command":"test -f notes.txt"}`}}},
		fakechat.Text("notes.txt is written; next I will commit it."),
	)
	defer srv.Close()
	srv.IsSummary = func(b []byte) bool { return strings.Contains(string(b), "Please summarize the following conversation") }
	srv.Summary = "Summary: the notes are being written."
	save := func(event string) map[string]any {
		// Appended, one line each: an event may fire more than once.
		return map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "(cat; echo) >> " + filepath.Join(payloads, event+".jsonl"), "timeout": 10}}}
	}
	hooks := map[string]any{}
	for _, e := range []string{"SessionStart", "UserPromptSubmit", "PostToolUse", "PreCompact", "Stop", "SessionEnd"} {
		hooks[e] = []any{save(e)}
	}
	settings := map[string]any{"hooks": hooks, "customModels": []any{map[string]any{"model": "fake-model", "displayName": "Fake",
		"baseUrl": srv.URL + "/v1", "apiKey": "x", "provider": "generic-chat-completion-api", "maxOutputTokens": 8000}}}
	b, _ := json.MarshalIndent(settings, "", "  ")
	if err := os.WriteFile(filepath.Join(home, ".factory", "settings.json"), b, 0o600); err != nil {
		return err
	}
	env := append(os.Environ(), "HOME="+home, "PWD="+project)
	run := func(name string, args ...string) error {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = project, env
		b, err := cmd.CombinedOutput()
		fmt.Fprintf(os.Stderr, "$ %s %s\n%s\n", name, strings.Join(args, " "), b)
		return err
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "initial commit"}} {
		if err := run("git", args...); err != nil {
			return err
		}
	}
	defer func() {
		var reqs []byte
		for _, r := range srv.Requests() {
			reqs = append(append(reqs, r.Body...), '\n')
		}
		os.WriteFile(filepath.Join(os.TempDir(), "recorddroid-requests.jsonl"), reqs, 0o644)
	}()
	if err := run(droid, "exec", "-m", "custom:Fake-0", "--skip-permissions-unsafe", "write the notes and commit them"); err != nil {
		return err
	}
	sessions, _ := filepath.Glob(filepath.Join(home, ".factory", "sessions", "*", "*.jsonl"))
	if len(sessions) != 1 {
		return fmt.Errorf("%d session files: %q", len(sessions), sessions)
	}
	if err := copyFile(sessions[0], filepath.Join(out, "session.jsonl")); err != nil {
		return err
	}
	// The temporary folders' names replaced by ones that stay the same.
	files, _ := filepath.Glob(filepath.Join(out, "*", "*.jsonl"))
	files = append(files, filepath.Join(out, "session.jsonl"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		b = []byte(strings.NewReplacer(root, "/tmp/recorddroid", out, "testdata/droid").Replace(string(b)))
		if err := os.WriteFile(f, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}
