// Command recordqwen records real Qwen Code sessions, offline against the
// fake Chat Completions API (e2e/fakechat), for the chat reader's tests: a
// request whose replies write a file, keep a todo list and run a failing
// command, then report a prompt near the window, so that Qwen Code
// compacts before its next request (chat.jsonl). It copies the chat to
// -out, and the stdin of each hook (payloads/<Event>.jsonl, a line each);
// the bodies the model got go to recordqwen-requests.jsonl in the
// temporary directory, out of the fixtures (Qwen Code's system prompt is
// its own).
//
//	go run ./e2e/recordqwen -qwen "$(npm prefix)/node_modules/.bin/qwen" -out testdata/qwen-0.24.4
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
	qwen := flag.String("qwen", "qwen", "the qwen binary (Node 22 on PATH)")
	out := flag.String("out", "testdata/qwen-0.24.4", "where the chat goes")
	flag.Parse()
	if err := record(*qwen, *out); err != nil {
		fmt.Fprintln(os.Stderr, "recordqwen:", err)
		os.Exit(1)
	}
}

func record(qwen, out string) error {
	out, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	payloads := filepath.Join(out, "payloads")
	if err := os.MkdirAll(payloads, 0o755); err != nil {
		return err
	}
	root, err := os.MkdirTemp("", "recordqwen-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(root)
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	os.MkdirAll(filepath.Join(home, ".qwen"), 0o700)
	os.MkdirAll(project, 0o755)
	save := func(event, context string) map[string]any {
		// Appended, one line each: an event may fire more than once.
		cmd := "(cat; echo) >> " + filepath.Join(payloads, event+".jsonl")
		if context != "" {
			cmd += `; echo '{"hookSpecificOutput":{"hookEventName":"` + event + `","additionalContext":"` + context + `"}}'`
		}
		return map[string]any{"hooks": []any{map[string]any{"type": "command", "command": cmd, "timeout": 10}}}
	}
	settings := map[string]any{"tools": map[string]any{"todoWrite": map[string]any{"enabled": true}}, "hooks": map[string]any{
		"SessionStart": []any{save("SessionStart", "what the hook said")},
		"PreCompact":   []any{save("PreCompact", "")},
		"PostCompact":  []any{save("PostCompact", "")},
		"Stop":         []any{save("Stop", "")},
		"SessionEnd":   []any{save("SessionEnd", "")},
	}}
	b, _ := json.MarshalIndent(settings, "", "  ")
	if err := os.WriteFile(filepath.Join(home, ".qwen", "settings.json"), b, 0o600); err != nil {
		return err
	}
	srv := fakechat.New(
		fakechat.Reply{Text: "I will write the notes first.", Calls: []fakechat.Call{{Name: "todo_write",
			Arguments: `{"todos":[{"id":"1","content":"Write notes.txt","status":"in_progress"},{"id":"2","content":"Commit the notes","status":"pending"}]}`}}},
		fakechat.Reply{Calls: []fakechat.Call{{Name: "write_file", Arguments: `{"file_path":"` + filepath.Join(project, "notes.txt") + `","content":"notes\n"}`}}},
		fakechat.Reply{Calls: []fakechat.Call{{Name: "run_shell_command", Arguments: `{"command":"false","description":"fail on purpose"}`}}, PromptTokens: 199000},
		fakechat.Reply{Text: "notes.txt is written; next I will commit it."},
		fakechat.Reply{Text: "Going on."},
	)
	defer srv.Close()
	srv.IsSummary = func(body []byte) bool { return strings.Contains(string(body), "produce the <state_snapshot> XML") }
	srv.SummaryPromptTokens = 199000
	srv.Summary = "<analysis>short</analysis>\n<state_snapshot><overall_goal>write the notes</overall_goal></state_snapshot>"
	env := append(os.Environ(), "HOME="+home)
	run := func(args ...string) error {
		cmd := exec.Command(qwen, append(args, "--auth-type", "openai", "--openai-base-url", srv.URL+"/v1", "--openai-api-key", "x", "-m", "fake-model", "--yolo")...)
		cmd.Dir, cmd.Env = project, env
		b, err := cmd.CombinedOutput()
		fmt.Fprintf(os.Stderr, "$ qwen %s\n%s\n", strings.Join(args, " "), b)
		return err
	}
	if out, err := exec.Command("git", "-C", project, "init", "-q", "-b", "main").CombinedOutput(); err != nil {
		return fmt.Errorf("git init: %v: %s", err, out)
	}
	defer func() {
		var reqs []byte
		for _, r := range srv.Requests() {
			reqs = append(reqs, r.Body...)
			reqs = append(reqs, '\n')
		}
		// Qwen Code's system prompt is its own: kept out of the fixtures.
		os.WriteFile(filepath.Join(os.TempDir(), "recordqwen-requests.jsonl"), reqs, 0o644)
	}()
	if err := run("write the notes and commit them"); err != nil {
		return err
	}
	if err := run("--continue", "go on"); err != nil {
		return err
	}
	chats, _ := filepath.Glob(filepath.Join(home, ".qwen", "projects", "*", "chats", "*.jsonl"))
	for i, c := range chats {
		b, err := os.ReadFile(c)
		if err != nil {
			return err
		}
		name := "chat.jsonl"
		if i > 0 {
			name = fmt.Sprintf("chat-%d.jsonl", i)
		}
		if err := os.WriteFile(filepath.Join(out, name), []byte(strings.ReplaceAll(string(b), root, "/tmp/recordqwen")), 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "chats: %q\n", chats)
	return nil
}
