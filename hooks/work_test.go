package hooks

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/session-hooks/session-hooks/gitdiag"
)

func TestWorkSinceIsTheCommitsOnTopAndEveryFileTheyOrTheWorkTreeChanged(t *testing.T) {
	dir := project(t)
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@e"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	write := func(name, content string) { os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644) }
	write("a.txt", "1")
	git("add", "-A")
	git("commit", "-qm", "before the session")
	start := plumbing.NewHash(strings.TrimSpace(git("rev-parse", "HEAD")))
	write("b.txt", "2")
	git("add", "b.txt")
	git("commit", "-qm", "first of the session")
	write("c.txt", "3")
	git("add", "c.txt")
	git("commit", "-qm", "second of the session")
	write("a.txt", "changed, not committed")
	write("new.txt", "untracked")
	repo, err := gitdiag.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	w, err := workSince(context.Background(), repo, start, 10)
	if err != nil {
		t.Fatal(err)
	}
	var subjects []string
	for _, c := range w.Commits {
		subjects = append(subjects, c.Subject)
	}
	if strings.Join(subjects, "|") != "second of the session|first of the session" {
		t.Errorf("commits %q", subjects)
	}
	if got := strings.Join(w.Files, " "); got != "a.txt b.txt c.txt new.txt" {
		t.Errorf("files %q", got)
	}
}
