package gitdiag

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The environment variables that move a repository, each compared with
// what git makes of them in the same place.
func TestGitEnvironmentIsHonouredAsGitHonoursIt(t *testing.T) {
	type setup struct{ store, tree, alt string } // a git dir moved away, its work tree, a second tree
	tests := []struct {
		name string
		env  func(s setup) map[string]string
		cwd  func(s setup) string
	}{
		{"GIT_DIR alone: the current directory is the work tree",
			func(s setup) map[string]string { return map[string]string{"GIT_DIR": s.store} },
			func(s setup) string { return s.tree }},
		{"GIT_DIR alone from a subdirectory, which becomes the top",
			func(s setup) map[string]string { return map[string]string{"GIT_DIR": s.store} },
			func(s setup) string { return filepath.Join(s.tree, "sub") }},
		{"GIT_DIR relative to the current directory",
			func(s setup) map[string]string { return map[string]string{"GIT_DIR": "../store.git"} },
			func(s setup) string { return s.tree }},
		{"GIT_DIR and GIT_WORK_TREE from a subdirectory",
			func(s setup) map[string]string {
				return map[string]string{"GIT_DIR": s.store, "GIT_WORK_TREE": s.tree}
			},
			func(s setup) string { return filepath.Join(s.tree, "sub") }},
		{"GIT_DIR and GIT_WORK_TREE from outside the work tree",
			func(s setup) map[string]string {
				return map[string]string{"GIT_DIR": s.store, "GIT_WORK_TREE": s.alt}
			},
			func(s setup) string { return s.tree }},
		{"GIT_INDEX_FILE, absolute",
			func(s setup) map[string]string {
				return map[string]string{"GIT_DIR": s.store, "GIT_INDEX_FILE": filepath.Join(filepath.Dir(s.store), "other-index")}
			},
			func(s setup) string { return s.tree }},
		{"GIT_INDEX_FILE relative: to the top of the work tree, not the current directory",
			func(s setup) map[string]string {
				return map[string]string{"GIT_DIR": s.store, "GIT_WORK_TREE": s.tree, "GIT_INDEX_FILE": "../other-index"}
			},
			func(s setup) string { return filepath.Join(s.tree, "sub") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("a.txt", "a\n")
			f.write("sub/b.txt", "b\n")
			f.commit("first")
			f.write("a.txt", "changed\n")
			f.write("sub/new.txt", "new\n")
			s := setup{store: filepath.Join(filepath.Dir(f.dir), "store.git"), tree: f.dir, alt: filepath.Join(filepath.Dir(f.dir), "alt")}
			if err := os.Rename(filepath.Join(f.dir, ".git"), s.store); err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(filepath.Join(s.alt, "sub"), 0o755)
			os.WriteFile(filepath.Join(s.alt, "sub", "b.txt"), []byte("other\n"), 0o644)
			other := filepath.Join(filepath.Dir(s.store), "other-index")
			stage := exec.Command("git", "--git-dir="+s.store, "--work-tree="+s.tree, "add", "sub/new.txt")
			stage.Env = append(os.Environ(), "GIT_INDEX_FILE="+other)
			if out, err := stage.CombinedOutput(); err != nil {
				t.Fatalf("%v %s", err, out)
			}
			for k, v := range tt.env(s) {
				t.Setenv(k, v)
			}
			assertEnvMatchesGit(t, f, tt.cwd(s))
		})
	}
}

// assertEnvMatchesGit compares the porcelain status and the log, run from
// dir with the process's environment, with git's.
func assertEnvMatchesGit(t *testing.T, f *fixture, dir string) {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatalf("Open: %v (git: %s)", err, gitOutput(dir, "rev-parse", "--git-dir", "--show-toplevel"))
	}
	defer r.Close()
	st, err := r.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	compare(t, "status --porcelain", lines(f.gitIn(dir, "status", "--porcelain")), st.Short(""))
	commits, err := r.Log(context.Background(), 5, false)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range commits {
		got = append(got, c.Oneline())
	}
	compare(t, "log --oneline", lines(f.gitIn(dir, "log", "--oneline", "-5", "--no-decorate")), got)
}

func gitOutput(dir string, args ...string) string {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput()
	return strings.TrimSpace(string(out))
}

func TestCoreWorktreeMovesTheWorkTreeAsInGit(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commit("first")
	store := filepath.Join(filepath.Dir(f.dir), "cw.git")
	os.Rename(filepath.Join(f.dir, ".git"), store)
	f.gitIn(store, "config", "core.worktree", f.dir)
	f.write("a.txt", "changed\n")
	t.Setenv("GIT_DIR", store)
	assertEnvMatchesGit(t, f, filepath.Dir(f.dir))
}

func TestCeilingDirectoriesStopDiscoveryAsInGit(t *testing.T) {
	f := newFixture(t)
	f.write("sub/deeper/x.txt", "x\n")
	f.commit("first")
	deeper := f.path("sub/deeper")
	link := filepath.Join(t.TempDir(), "link")
	os.Symlink(f.dir, link)
	for _, ceiling := range []string{
		f.dir,                       // the top itself is never looked at
		f.path("sub"),               // nor anything above the ceiling
		filepath.Dir(f.dir),         // the repository is below it: found
		deeper,                      // the starting directory is always looked at
		"relative/ignored:" + f.dir, // relative entries are ignored, the rest kept
		link,                        // compared with links resolved
		"/nowhere:" + filepath.Dir(f.dir),
	} {
		t.Run(ceiling, func(t *testing.T) {
			t.Setenv("GIT_CEILING_DIRECTORIES", ceiling)
			cmd := exec.Command("git", "rev-parse", "--show-toplevel")
			cmd.Dir = deeper
			gitFound := cmd.Run() == nil
			r, err := Open(deeper)
			if gitFound != (err == nil) {
				t.Fatalf("git found a repository: %v; gitdiag: %v", gitFound, err)
			}
			if err != nil {
				if err != ErrNotRepository {
					t.Errorf("got %v, want git's error", err)
				}
				return
			}
			r.Close()
			assertEnvMatchesGit(t, f, deeper)
		})
	}
}
