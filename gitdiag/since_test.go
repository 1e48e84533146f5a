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
		b, ok, err := r.FileAtHEAD(path)
		if err != nil || !ok || string(b) != want {
			t.Errorf("%s: %q %v %v", path, b, ok, err)
		}
	}
	for _, missing := range []string{"nope.json", "docs/nope", "feature_list.json/x"} {
		if _, ok, err := r.FileAtHEAD(missing); ok || err != nil {
			t.Errorf("%s: %v %v", missing, ok, err)
		}
	}
}

func TestWorkSince(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "1")
	f.commit("before the session")
	start := plumbing.NewHash(strings.TrimSpace(f.git("rev-parse", "HEAD")))
	f.write("b.txt", "2")
	f.commit("first of the session")
	f.write("c.txt", "3")
	f.commit("second of the session")
	f.write("a.txt", "changed, not committed")
	f.write("new.txt", "untracked")
	r, _ := Open(f.dir)
	s, err := r.WorkSince(context.Background(), start, 10)
	if err != nil {
		t.Fatal(err)
	}
	var subjects []string
	for _, c := range s.Commits {
		subjects = append(subjects, c.Subject)
	}
	if strings.Join(subjects, "|") != "second of the session|first of the session" {
		t.Errorf("commits %q", subjects)
	}
	if strings.Join(s.Files, " ") != "a.txt b.txt c.txt new.txt" {
		t.Errorf("files %q", s.Files)
	}
}
