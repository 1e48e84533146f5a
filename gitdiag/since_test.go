package gitdiag

import (
	"context"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestFileAtHEAD(t *testing.T) {
	f := newFixture(t)
	f.write("feature_list.json", `[{"passes":false}]`)
	f.write("docs/deep/x.txt", "deep")
	f.commit("first")
	f.write("feature_list.json", `[{"passes":true}]`)
	r, _ := Open(f.dir)
	for path, want := range map[string]string{"feature_list.json": `[{"passes":false}]`, "docs/deep/x.txt": "deep"} {
		b, ok, err := r.FileAtHEAD(path, 1<<20)
		if err != nil || !ok || string(b) != want {
			t.Errorf("%s: %q %v %v", path, b, ok, err)
		}
	}
	for _, missing := range []string{"nope.json", "docs/nope", "feature_list.json/x"} {
		if _, ok, err := r.FileAtHEAD(missing, 1<<20); ok || err != nil {
			t.Errorf("%s: %v %v", missing, ok, err)
		}
	}
}

func TestLogUntilAndNamesSinceMatchGit(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "1")
	f.commit("before the session")
	start := plumbing.NewHash(strings.TrimSpace(f.git("rev-parse", "HEAD")))
	f.write("b.txt", "2")
	f.write("d/e.txt", "2")
	f.commit("first of the session")
	f.write("c.txt", "3")
	f.git("rm", "-q", "a.txt")
	f.commit("second of the session")
	r, _ := Open(f.dir)
	commits, err := r.LogUntil(context.Background(), start, 10)
	if err != nil {
		t.Fatal(err)
	}
	var subjects []string
	for _, c := range commits {
		subjects = append(subjects, c.Subject)
	}
	if got, want := strings.Join(subjects, "\n"), strings.TrimSpace(f.git("log", "--format=%s", start.String()+"..HEAD")); got != want {
		t.Errorf("commits %q, git says %q", got, want)
	}
	names, err := r.NamesSince(start)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(names, "\n"), strings.TrimSpace(f.git("diff", "--name-only", start.String(), "HEAD")); got != want {
		t.Errorf("names %q, git says %q", got, want)
	}
	if few, _ := r.LogUntil(context.Background(), start, 1); len(few) != 1 || few[0].Subject != "second of the session" {
		t.Errorf("at most 1: %+v", few)
	}
}
