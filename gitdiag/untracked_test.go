package gitdiag

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// cacheWritten runs git status with the untracked cache on, after moving
// every directory's mtime a minute back so that none is racily clean
// (git trusts a directory only if it is older than the index it writes).
func cacheWritten(t *testing.T, f *fixture) {
	t.Helper()
	f.git("config", "core.untrackedCache", "true")
	f.untrackedCache = true
	earlier := time.Now().Add(-time.Minute)
	filepath.WalkDir(f.dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && !strings.Contains(p, "/.git") {
			os.Chtimes(p, earlier, earlier)
		}
		return nil
	})
	f.git("status", "--porcelain")
}

func TestUntrackedCacheAsGitUsesIt(t *testing.T) {
	tests := []struct {
		name      string
		change    func(f *fixture)
		usesCache bool // some directory is read from the cache
	}{
		{"nothing changed", func(f *fixture) {}, true},
		{"a tracked file edited in place", func(f *fixture) { f.write("src/a.go", "edited") }, true},
		{"a file created in a tracked directory", func(f *fixture) { f.write("src/new.go", "n") }, true},
		{"a file created in an untracked directory of ignored files", func(f *fixture) {
			f.write("logs/today.txt", "t")
		}, true},
		{"a file created in an untracked directory shown whole", func(f *fixture) {
			f.write("scratch/more.txt", "m")
		}, true},
		{"a tracked .gitignore edited in place", func(f *fixture) {
			f.write("src/.gitignore", "")
		}, true},
		{"info/exclude changed", func(f *fixture) {
			f.write(".git/info/exclude", "*.txt\n")
		}, false},
		{"core.excludesFile set", func(f *fixture) {
			f.write("../global-ignore", "*.md\n")
			f.git("config", "--global", "core.excludesFile", f.path("../global-ignore"))
		}, false},
		{"status.showUntrackedFiles=all", func(f *fixture) {
			f.git("config", "status.showUntrackedFiles", "all")
		}, false},
		{"core.untrackedCache=false", func(f *fixture) {
			f.git("config", "core.untrackedCache", "false")
		}, false},
		{"a file unstaged with git rm --cached", func(f *fixture) {
			f.git("rm", "-q", "--cached", "docs/guide.md")
		}, true},
		{"a tracked directory replaced by a link", func(f *fixture) {
			os.RemoveAll(f.path("docs"))
			os.Symlink("src", f.path("docs"))
		}, true},
		{"a tracked file removed", func(f *fixture) { os.Remove(f.path("src/pkg/b.go")) }, true},
		{"a directory's mtime in the index's second", func(f *fixture) {
			now := time.Now().Add(time.Hour)
			os.Chtimes(f.path("src/pkg"), now, now)
			f.write("src/pkg/sneaky.go", "s")
			os.Chtimes(f.path("src/pkg"), now, now)
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("README.md", "r")
			f.write("src/a.go", "a")
			f.write("src/.gitignore", "*.tmp\n")
			f.write("src/pkg/b.go", "b")
			f.write("docs/guide.md", "g")
			f.write(".gitignore", "*.log\nlogs/*.log\n")
			f.commit("first")
			f.write("src/pkg/c.tmp", "ignored")
			f.write("src/untracked.go", "u")
			f.write("scratch/notes.txt", "n")
			f.write("logs/a.log", "ignored")
			cacheWritten(t, f)
			tt.change(f)
			_, st := openStatus(t, f.dir, false)
			_, parallel := openStatus(t, f.dir, true)
			want := lines(f.statusTruth(f.dir))
			compare(t, "status --short", want, st.Short(""))
			compare(t, "status --short (parallel walk)", want, parallel.Short(""))
			if used := st.dirsFromCache > 0; used != tt.usesCache {
				t.Errorf("%d directories read from the untracked cache; want some: %v", st.dirsFromCache, tt.usesCache)
			}
		})
	}
}
