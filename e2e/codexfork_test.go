//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/e2e/fakeresponses"
)

// A Codex fork (codex exec fork, SessionStart source "fork") starts a new
// session holding its parent's conversation: its brief says only what that
// conversation does not hold, so the fork's first request holds our brief
// once.
func TestCodexForkHoldsTheBriefOnce(t *testing.T) {
	codex := requireCodex(t)
	srv := fakeresponses.New(
		fakeresponses.Reply{Items: []fakeresponses.Item{{Text: "Looking at the parser."}}},
		fakeresponses.Reply{Items: []fakeresponses.Item{{Text: "Forked and going on."}}},
	)
	defer srv.Close()
	root := t.TempDir()
	home, project := filepath.Join(root, "codex-home"), filepath.Join(root, "project")
	os.MkdirAll(home, 0o700)
	os.MkdirAll(project, 0o755)
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = project
		cmd.Env = append(os.Environ(), "CODEX_HOME="+home, "FAKE_API_KEY=x",
			"PATH="+filepath.Dir(codex)+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("git", "init", "-q", "-b", "main")
	run("git", "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "--allow-empty", "-m", "Start")
	config := fmt.Sprintf("model_provider = \"fake\"\nmodel = \"gpt-5\"\n\n[model_providers.fake]\nname = \"fake\"\n"+
		"base_url = \"%s/v1\"\nwire_api = \"responses\"\nenv_key = \"FAKE_API_KEY\"\n", srv.URL)
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o600)
	run(hooksBin, "install", "--agent", "codex")
	out := run(codex, "exec", "--skip-git-repo-check", "--json", "fix the parser")
	id := regexp.MustCompile(`"thread_id":"([0-9a-f-]+)"`).FindStringSubmatch(out)
	if id == nil {
		t.Fatalf("no thread id in:\n%s", out)
	}
	run(codex, "exec", "--skip-git-repo-check", "--json", "fork", id[1], "go on in the fork")
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	const brief = "what Codex CLI does not say of it"
	if n := strings.Count(string(reqs[1]), brief); n != 1 {
		t.Errorf("the fork's first request holds the brief %d times, want once", n)
	}
}
