//go:build e2e

package e2e

import (
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
	_, run := codexIn(t, codex, srv.URL)
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
