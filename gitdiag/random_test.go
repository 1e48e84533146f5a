package gitdiag

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRandomOperationsMatchGit applies random sequences of file operations
// and compares gitdiag with the git CLI after every step. Contents are
// random and distinct, so that renames are the ones git mv makes (and
// git's similarity finds or not after an edit). Line endings, attributes
// and stale stat data exercise the conversions applied before hashing.
//
// By default 5 sequences of 40 steps (10 with -short); .ci/run adds
// -random.seeds and -random.steps for a long run: seeds past 5 use the
// plain configuration.
func TestRandomOperationsMatchGit(t *testing.T) {
	steps := *randomSteps
	if testing.Short() {
		steps = min(steps, 10)
	}
	for seed := int64(1); seed <= int64(*randomSeeds); seed++ {
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			f := newFixture(t)
			rng := rand.New(rand.NewSource(seed))
			w := &randomWorld{f: f, rng: rng}
			switch seed {
			case 3:
				// As on macOS: names match the index in either case.
				f.git("config", "core.ignoreCase", "true")
			case 4:
				// One sequence with a split index, which git rewrites as
				// the changes grow (splitIndex.maxPercentChange).
				f.git("config", "core.splitIndex", "true")
			case 5:
				// git's untracked cache, which each comparison refreshes
				// for the next step to use.
				f.git("config", "core.untrackedCache", "true")
				f.untrackedCache = true
			}
			fromCache := 0
			w.write("README.md")
			f.commit("first")
			// The first commit is the upstream: each commit of the
			// sequence is then compared as the session's diff stat.
			f.trackOriginMain()
			for step := 0; step < steps; step++ {
				attrs, _ := os.ReadFile(f.path(".gitattributes"))
				op := w.step()
				if now, _ := os.ReadFile(f.path(".gitattributes")); !bytes.Equal(now, attrs) {
					w.backdate()
				}
				t.Logf("step %d: %s", step, op)
				if seed == 5 {
					_, st := openStatus(t, f.dir, false)
					fromCache += st.dirsFromCache
				}
				assertMatchesGit(t, f, "")
				if op == "commit everything" {
					assertDiffStatMatchesGit(t, f, "origin/main")
				}
				if t.Failed() {
					return
				}
			}
			if seed == 5 && fromCache == 0 {
				t.Error("no directory was read from the untracked cache")
			}
		})
	}
}

var (
	randomSeeds = flag.Int("random.seeds", 5, "how many random sequences TestRandomOperationsMatchGit runs")
	randomSteps = flag.Int("random.steps", 40, "how many steps each random sequence takes")
)

type randomWorld struct {
	f                *fixture
	rng              *rand.Rand
	attributeChanges int
}

var randomDirs = []string{"", "src", "src/pkg", "docs", "build", "tmp/deep/er"}

func (w *randomWorld) content() string {
	b := make([]byte, 20+w.rng.Intn(60))
	for i := range b {
		b[i] = byte('a' + w.rng.Intn(26))
	}
	return string(b) + "\n"
}

func (w *randomWorld) newPath() string {
	dir := randomDirs[w.rng.Intn(len(randomDirs))]
	return joinPath(dir, fmt.Sprintf("f%03d.txt", w.rng.Intn(1000)))
}

func (w *randomWorld) write(p string) { w.f.write(p, w.content()) }

// existing picks a file in the work tree, or "" when there is none.
func (w *randomWorld) existing() string {
	var files []string
	filepath.WalkDir(w.f.dir, func(p string, d os.DirEntry, err error) error {
		if d != nil && d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(w.f.dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if len(files) == 0 {
		return ""
	}
	return files[w.rng.Intn(len(files))]
}

// backdate gives every file an mtime in a second of its own, after the
// attributes changed. New attributes change what a file hashes to, not its
// stat data, and git compares mtimes to the second, gitdiag to the
// nanosecond: within the second of a write git hashes where gitdiag
// trusts the stat data. With new mtimes both hash every file.
func (w *randomWorld) backdate() {
	w.attributeChanges++
	earlier := time.Now().Add(-time.Duration(w.attributeChanges) * time.Minute).Truncate(time.Second)
	filepath.WalkDir(w.f.dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && !strings.Contains(p, "/.git/") {
			os.Chtimes(p, earlier, earlier)
		}
		return nil
	})
}

func isSymlink(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode()&os.ModeSymlink != 0
}

func (w *randomWorld) step() string {
	switch p := w.existing(); w.rng.Intn(16) {
	case 0, 1:
		q := w.newPath()
		w.write(q)
		return "create " + q
	case 2:
		if p != "" {
			b, _ := os.ReadFile(w.f.path(p))
			os.WriteFile(w.f.path(p), append(b, w.content()...), 0o644)
			return "append to " + p
		}
	case 3:
		if p != "" {
			os.Remove(w.f.path(p))
			return "delete " + p
		}
	case 4:
		if p != "" {
			os.Chmod(w.f.path(p), 0o755)
			return "chmod +x " + p
		}
	case 5:
		if p != "" {
			w.f.gitMayFail("add", "--", p) // refused when p is ignored
			return "stage " + p
		}
	case 6:
		w.f.git("add", "-A")
		w.f.git("commit", "-q", "--allow-empty", "-m", "step")
		return "commit everything"
	case 7:
		if p != "" {
			w.f.gitMayFail("rm", "-q", "--cached", "--", p)
			return "unstage " + p
		}
	case 8:
		pattern := []string{"*.log", "build/", "tmp/", "!keep.log", "src/pkg/f1*"}[w.rng.Intn(5)]
		b, _ := os.ReadFile(w.f.path(".gitignore"))
		os.WriteFile(w.f.path(".gitignore"), append(b, pattern+"\n"...), 0o644)
		w.write(joinPath(randomDirs[w.rng.Intn(len(randomDirs))], []string{"x.log", "keep.log", "f100.txt"}[w.rng.Intn(3)]))
		return "ignore " + pattern
	case 9:
		link := w.newPath()
		os.MkdirAll(filepath.Dir(w.f.path(link)), 0o755)
		// A distinct target per link: equal links are equal blobs, which
		// git would pair as a rename.
		os.Symlink(fmt.Sprintf("target-%d", w.rng.Int63()), w.f.path(link))
		return "symlink " + link
	case 10:
		dir := randomDirs[1+w.rng.Intn(len(randomDirs)-1)]
		os.RemoveAll(w.f.path(dir))
		return "remove directory " + dir
	case 11:
		if p != "" && !isSymlink(w.f.path(p)) {
			b, _ := os.ReadFile(w.f.path(p))
			if bytes.Contains(b, []byte("\r\n")) {
				b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
			} else {
				b = bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
			}
			os.WriteFile(w.f.path(p), b, 0o644)
			return "switch the line endings of " + p
		}
	case 12:
		rule := []string{"*.txt text eol=crlf", "*.txt -text", "src/** text", "* text=auto", "docs/*.txt ident", "*.md binary"}[w.rng.Intn(6)]
		b, _ := os.ReadFile(w.f.path(".gitattributes"))
		os.WriteFile(w.f.path(".gitattributes"), append(b, rule+"\n"...), 0o644)
		return "attributes " + rule
	case 14:
		if p != "" && !isSymlink(w.f.path(p)) {
			dir, name := filepath.Split(p)
			renamed := dir + strings.ToUpper(name[:1]) + name[1:]
			if renamed == p {
				renamed = dir + strings.ToLower(name[:1]) + name[1:]
			}
			os.Rename(w.f.path(p), w.f.path(renamed))
			w.write(renamed) // new content: git would pair equal blobs as a rename
			return "rename " + p + " to " + renamed + ", new content"
		}
	case 15:
		if p != "" {
			q := w.newPath()
			os.MkdirAll(filepath.Dir(w.f.path(q)), 0o755)
			w.f.gitMayFail("mv", "--", p, q) // refused for an untracked or ignored p
			if w.rng.Intn(2) == 0 && !isSymlink(w.f.path(q)) {
				b, _ := os.ReadFile(w.f.path(q))
				os.WriteFile(w.f.path(q), append(b, w.content()...), 0o644)
			}
			return "git mv " + p + " " + q
		}
	case 13:
		if p != "" && !isSymlink(w.f.path(p)) {
			// Stale stat data: git and gitdiag must hash, through the
			// conversions the attributes ask for.
			later := time.Now().Add(time.Duration(1+w.rng.Intn(5)) * time.Second)
			os.Chtimes(w.f.path(p), later, later)
			return "touch " + p
		}
	}
	q := w.newPath()
	w.write(q)
	return "create " + q
}
