//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/e2e/fakechat"
)

// statusIn is session-hooks' status for agent, run in dir: its output,
// and whether it found a problem.
func statusIn(t *testing.T, dir, home, agent string) (string, bool) {
	t.Helper()
	cmd := exec.Command(hooksBin, "--agent", agent, "status")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "HOME="+home)
	out, err := cmd.CombinedOutput()
	return string(out), err != nil
}

// OpenCode finds the project's plugin from a subdirectory: a session
// started there gets the brief, and its handoff is the worktree's, at the
// top, where a session started at the top finds it.
func TestOpenCodeStartedInASubdirectoryHandsOverAtTheTop(t *testing.T) {
	srv := fakechat.New(fakechat.Text("Done."))
	defer srv.Close()
	project, run, _ := opencodeProject(t, srv)
	sub := filepath.Join(project, "pkg")
	os.MkdirAll(sub, 0o755)
	bin := requireNPM(t, "OpenCode", "opencode-ai", opencodeVersion, "opencode")
	typeIn(project, []string{"run", "hello", "from", "below"})
	run("sh", "-c", `cd pkg && PWD="$(pwd)" exec "$0" run -m fake/fake-model hello from below`, bin)
	if main := mainOpenCodeRequests(srv, 0); len(main) != 1 || !strings.Contains(main[0], "what OpenCode does not say of it") {
		t.Errorf("the session below the top got no brief (%d requests)", len(main))
	}
	if b, err := os.ReadFile(filepath.Join(project, ".claude", "logs", "handoff.json")); err != nil || !strings.Contains(string(b), "hello from below") {
		t.Errorf("the handoff at the top: %v %s", err, b)
	}
	if _, err := os.Stat(filepath.Join(sub, ".claude")); err == nil {
		t.Error("the subdirectory got logs of its own")
	}
	if out, failed := statusIn(t, sub, filepath.Join(filepath.Dir(project), "home"), "opencode"); failed {
		t.Errorf("status below the top:\n%s", out)
	}
}

// Qwen Code started in a subdirectory runs none of the hooks the top's
// settings wire; status and doctor there say so, and what works.
func TestQwenStartedInASubdirectoryRunsNoneAndStatusSaysSo(t *testing.T) {
	srv := fakechat.New(fakechat.Text("Done."))
	defer srv.Close()
	project, run, _ := qwenProject(t, srv)
	sub := filepath.Join(project, "pkg")
	os.MkdirAll(sub, 0o755)
	node, script := requireQwen(t)
	run("sh", "-c", `cd pkg && exec "$0" "$1" -p hello --auth-type openai --openai-base-url "$2/v1" --openai-api-key x -m fake-model --yolo`, node, script, srv.URL)
	if main := mainQwenRequests(srv, 0); len(main) == 0 || strings.Contains(main[0], "what Qwen Code does not say of it") {
		t.Fatalf("Qwen Code started below the top ran the top's hooks (%d requests): the status below is wrong", len(main))
	}
	out, failed := statusIn(t, sub, filepath.Join(filepath.Dir(project), "home"), "qwen")
	if !failed || !strings.Contains(out, "Qwen Code started here") || !strings.Contains(out, "--scope user") {
		t.Errorf("status below the top:\n%s", out)
	}
}

// Claude Code started in a subdirectory runs none of the hooks the top's
// settings wire; status there says so, and what works.
func TestClaudeStartedInASubdirectoryRunsNoneAndStatusSaysSo(t *testing.T) {
	s := newSession(t)
	sub := filepath.Join(s.project, "pkg")
	os.MkdirAll(sub, 0o755)
	s.claude(sub, "-p", "hello")
	if strings.Contains(s.mainRequests()[0], briefHeader) {
		t.Fatal("Claude Code started below the top ran the top's hooks: the status below is wrong")
	}
	out, failed := statusIn(t, sub, t.TempDir(), "claude")
	if !failed || !strings.Contains(out, "Claude Code started here") {
		t.Errorf("status below the top:\n%s", out)
	}
}
