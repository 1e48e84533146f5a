package gitdiag

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// upstream makes a repository to add as a submodule, with one commit and
// the given submodules of its own (each an upstream path).
func (f *fixture) upstream(name string, subs ...string) string {
	f.t.Helper()
	dir := filepath.Join(f.t.TempDir(), name)
	u := &fixture{t: f.t, dir: dir}
	u.gitIn(filepath.Dir(dir), "init", "-q", "-b", "main", dir)
	u.write("a.txt", "a\n")
	u.write("b.txt", "b\n")
	for i, s := range subs {
		u.addSubmodule(s, "inner"+string(rune('0'+i)))
	}
	u.commit("first of " + name)
	return dir
}

// addSubmodule adds the repository at url as a submodule at path.
func (f *fixture) addSubmodule(url, path string) {
	f.t.Helper()
	f.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", url, path)
	f.git("-c", "protocol.file.allow=always", "submodule", "update", "-q", "--init", "--recursive")
}

// inSub runs git inside the submodule at path.
func (f *fixture) inSub(path string, args ...string) {
	f.t.Helper()
	f.gitIn(f.path(path), args...)
}

func TestSubmodulesMatchGit(t *testing.T) {
	tests := []struct {
		name  string
		setup func(f *fixture)
	}{
		{"clean submodule", func(f *fixture) {}},
		{"new commit checked out in the submodule", func(f *fixture) {
			f.write("lib/c.txt", "c\n")
			f.inSub("lib", "add", "c.txt")
			f.inSub("lib", "commit", "-q", "-m", "more")
		}},
		{"new commit staged in the superproject", func(f *fixture) {
			f.write("lib/c.txt", "c\n")
			f.inSub("lib", "add", "c.txt")
			f.inSub("lib", "commit", "-q", "-m", "more")
			f.git("add", "lib")
		}},
		{"modified content", func(f *fixture) {
			f.write("lib/a.txt", "changed\n")
		}},
		{"staged content", func(f *fixture) {
			f.write("lib/a.txt", "changed\n")
			f.inSub("lib", "add", "a.txt")
		}},
		{"deleted content", func(f *fixture) {
			os.Remove(f.path("lib/b.txt"))
		}},
		{"untracked content", func(f *fixture) {
			f.write("lib/new.txt", "n\n")
		}},
		{"untracked and modified content", func(f *fixture) {
			f.write("lib/new.txt", "n\n")
			f.write("lib/a.txt", "changed\n")
		}},
		{"ignored content is clean", func(f *fixture) {
			f.write("lib/.gitignore", "*.log\n")
			f.inSub("lib", "add", ".gitignore")
			f.inSub("lib", "commit", "-q", "-m", "ignore logs")
			f.git("add", "lib")
			f.git("commit", "-q", "-m", "bump")
			f.write("lib/debug.log", "l\n")
		}},
		{"untracked content hidden by status.showUntrackedFiles", func(f *fixture) {
			f.git("config", "status.showUntrackedFiles", "no")
			f.write("lib/new.txt", "n\n")
			f.write("other/a.txt", "n\n")
		}},
		{"untracked content the submodule itself hides", func(f *fixture) {
			f.inSub("lib", "config", "status.showUntrackedFiles", "no")
			f.write("lib/new.txt", "n\n")
		}},
		{"ignore=all in .gitmodules hides even new commits", func(f *fixture) {
			f.git("config", "-f", ".gitmodules", "submodule.lib.ignore", "all")
			f.commit("ignore lib")
			f.write("lib/a.txt", "changed\n")
			f.write("lib/c.txt", "c\n")
			f.inSub("lib", "add", "c.txt")
			f.inSub("lib", "commit", "-q", "-m", "more")
		}},
		{"ignore=all in .gitmodules with a new commit staged", func(f *fixture) {
			f.git("config", "-f", ".gitmodules", "submodule.lib.ignore", "all")
			f.commit("ignore lib")
			f.write("lib/c.txt", "c\n")
			f.inSub("lib", "add", "c.txt")
			f.inSub("lib", "commit", "-q", "-m", "more")
			id := strings.TrimSpace(f.gitIn(f.path("lib"), "rev-parse", "HEAD"))
			f.git("update-index", "--cacheinfo", "160000,"+id+",lib")
		}},
		{"submodule not checked out with another commit staged", func(f *fixture) {
			f.git("submodule", "deinit", "-q", "-f", "lib")
			f.git("update-index", "--cacheinfo", "160000,"+strings.Repeat("1", 40)+",lib")
		}},
		{"ignore=dirty in .gitmodules", func(f *fixture) {
			f.git("config", "-f", ".gitmodules", "submodule.lib.ignore", "dirty")
			f.commit("ignore lib")
			f.write("lib/a.txt", "changed\n")
			f.write("lib2/new.txt", "n\n")
		}},
		{"ignore=untracked in .gitmodules", func(f *fixture) {
			f.git("config", "-f", ".gitmodules", "submodule.lib.ignore", "untracked")
			f.git("config", "-f", ".gitmodules", "submodule.lib2.ignore", "untracked")
			f.commit("ignore lib")
			f.write("lib/new.txt", "n\n")
			f.write("lib2/new.txt", "n\n")
			f.write("lib2/a.txt", "changed\n")
		}},
		{"ignore=none in .gitmodules lists untracked content in the diff", func(f *fixture) {
			f.git("config", "-f", ".gitmodules", "submodule.lib.ignore", "none")
			f.commit("ignore lib")
			f.write("lib/new.txt", "n\n")
			f.write("lib2/new.txt", "n\n")
		}},
		{"the repository's config overrides .gitmodules", func(f *fixture) {
			f.git("config", "-f", ".gitmodules", "submodule.lib.ignore", "all")
			f.commit("ignore lib")
			f.git("config", "submodule.lib.ignore", "untracked")
			f.write("lib/a.txt", "changed\n")
		}},
		{"an invalid value in .gitmodules is ignored", func(f *fixture) {
			f.git("config", "-f", ".gitmodules", "submodule.lib.ignore", "sometimes")
			f.commit("ignore lib")
			f.write("lib/new.txt", "n\n")
		}},
		{"diff.ignoreSubmodules sets the default", func(f *fixture) {
			f.git("config", "diff.ignoreSubmodules", "dirty")
			f.write("lib/a.txt", "changed\n")
			f.write("lib2/c.txt", "c\n")
			f.inSub("lib2", "add", "c.txt")
			f.inSub("lib2", "commit", "-q", "-m", "more")
		}},
		{"diff.ignoreSubmodules=none lists untracked content in the diff", func(f *fixture) {
			f.git("config", "diff.ignoreSubmodules", "none")
			f.write("lib/new.txt", "n\n")
		}},
		{"a submodule named apart from its path", func(f *fixture) {
			os.Mkdir(f.path("moved"), 0o755)
			f.git("mv", "lib", "moved/lib")
			f.commit("move")
			f.git("config", "-f", ".gitmodules", "submodule.lib.ignore", "untracked")
			f.commit("ignore")
			f.write("moved/lib/new.txt", "n\n")
			f.write("lib2/new.txt", "n\n")
		}},
		{"submodule not checked out", func(f *fixture) {
			f.git("submodule", "deinit", "-q", "-f", "lib")
		}},
		{"submodule directory removed", func(f *fixture) {
			os.RemoveAll(f.path("lib"))
		}},
		{"submodule replaced by a file", func(f *fixture) {
			os.RemoveAll(f.path("lib"))
			f.write("lib", "not a submodule\n")
		}},
		{"nested submodule with untracked content only", func(f *fixture) {
			f.write("nest/inner0/new.txt", "n\n")
		}},
		{"nested submodule with modified content", func(f *fixture) {
			f.write("nest/inner0/a.txt", "changed\n")
		}},
		{"nested submodule with a new commit", func(f *fixture) {
			f.write("nest/inner0/c.txt", "c\n")
			f.gitIn(f.path("nest/inner0"), "add", "c.txt")
			f.gitIn(f.path("nest/inner0"), "commit", "-q", "-m", "more")
		}},
	}
	// One superproject, copied for each case: adding submodules is slow.
	base := newFixture(t)
	base.write("top.txt", "t\n")
	lib := base.upstream("lib")
	base.addSubmodule(lib, "lib")
	base.addSubmodule(lib, "lib2")
	base.addSubmodule(base.upstream("nest", base.upstream("inner")), "nest")
	base.commit("with submodules")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fixture{t: t, dir: t.TempDir()}
			if out, err := exec.Command("cp", "-a", base.dir+"/.", f.dir).CombinedOutput(); err != nil {
				t.Fatalf("copying the superproject: %v\n%s", err, out)
			}
			tt.setup(f)
			assertMatchesGit(t, f, "")
		})
	}
}

func TestInvalidIgnoreSubmodulesConfigFailsAsInGit(t *testing.T) {
	for _, key := range []string{"submodule.lib.ignore", "diff.ignoreSubmodules"} {
		t.Run(key, func(t *testing.T) {
			f := newFixture(t)
			f.addSubmodule(f.upstream("lib"), "lib")
			f.commit("with a submodule")
			f.git("config", key, "bogus")
			r, err := Open(f.dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			_, err = r.Status(context.Background())
			want := "fatal: bad --ignore-submodules argument: bogus"
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("got %v, want %q as git says", err, want)
			}
		})
	}
}

// A submodule whose .git names another repository's git directory (one
// outside the superproject) is not read: git would read that one and show
// its changes. The engine says so.
func TestASubmoduleGitfileNamingAnotherRepositoryIsNotFollowed(t *testing.T) {
	isolateGit(t)
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commit("first")
	f.addSubmodule(f.upstream("lib"), "lib")
	f.commit("add lib")
	other := newFixture(t)
	other.write("a.txt", "other\n")
	other.commit("other")
	other.write("a.txt", "other, changed\n")
	os.WriteFile(f.path("lib/.git"), []byte("gitdir: "+other.path(".git")+"\n"), 0o644)
	r, st := openStatus(t, f.dir, false)
	if len(st.Files) != 0 {
		t.Errorf("status %q read through the other repository", st.Short(""))
	}
	if e := r.Engine(); !strings.Contains(e, "the gitfile of submodule lib") {
		t.Errorf("engine %q says nothing of the submodule", e)
	}
}
