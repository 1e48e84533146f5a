// Command recordgemini records a real Gemini CLI session, offline against
// the fake Gemini API (e2e/fakegemini), for the chat reader's tests: a
// request answered, with a SessionStart hook whose context Gemini CLI
// prepends to the request. It copies the chat to -out, and the stdin of
// each hook (payloads/<Event>.json), saved by hooks that save it.
//
//	go run ./e2e/recordgemini -gemini "$(npm prefix)/node_modules/.bin/gemini" -out testdata/gemini-0.61.0
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/session-hooks/session-hooks/e2e/fakegemini"
)

func main() {
	gemini := flag.String("gemini", "gemini", "the gemini binary")
	out := flag.String("out", "testdata/gemini-0.61.0", "where the chat goes")
	flag.Parse()
	if err := record(*gemini, *out); err != nil {
		fmt.Fprintln(os.Stderr, "recordgemini:", err)
		os.Exit(1)
	}
}

func record(gemini, out string) error {
	out, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	srv := fakegemini.New(fakegemini.Reply{Text: "I will look at the parser."})
	defer srv.Close()
	scratch, err := os.MkdirTemp("", "recordgemini-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	home, project := filepath.Join(scratch, "home"), filepath.Join(scratch, "project")
	os.MkdirAll(filepath.Join(home, ".gemini"), 0o700)
	os.MkdirAll(project, 0o755)
	payloads := filepath.Join(out, "payloads")
	if err := os.MkdirAll(payloads, 0o755); err != nil {
		return err
	}
	save := func(event, context string) string {
		cmd := "cat > " + filepath.Join(payloads, event+".json")
		if context != "" {
			cmd += `; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"` + event + `\",\"additionalContext\":\"` + context + `\"}}'`
		}
		return `{"hooks":[{"type":"command","command":"` + cmd + `","timeout":10000}]}`
	}
	settings := `{"security":{"auth":{"selectedType":"gemini-api-key"}},"hooks":{"SessionStart":[` + save("SessionStart", "what the hook said") +
		`],"PreCompress":[` + save("PreCompress", "") + `],"SessionEnd":[` + save("SessionEnd", "") + `]}}`
	if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(settings), 0o600); err != nil {
		return err
	}
	cmd := exec.Command(gemini, "-p", "fix the parser so that the tests pass", "--yolo", "-o", "json")
	cmd.Env = append(os.Environ(), "HOME="+home, "GEMINI_API_KEY=x", "GOOGLE_GEMINI_BASE_URL="+srv.URL, "GEMINI_CLI_TRUST_WORKSPACE=true")
	cmd.Dir = project
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("gemini: %v\n%s", err, b)
	}
	chats, _ := filepath.Glob(filepath.Join(home, ".gemini", "tmp", "*", "chats", "session-*.jsonl"))
	if len(chats) != 1 {
		return fmt.Errorf("%d chats recorded, want 1", len(chats))
	}
	b, err := os.ReadFile(chats[0])
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "chat.jsonl"), b, 0o644)
}
