package gitdiag

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A path the repository's metadata names out of the repository is not
// read, where git would read it, and the engine says so: an include, an
// excludes or attributes file, a work tree, a ref name climbing out of the
// git directory. The same settings from the user's own config are the
// user's to make, and followed.
func TestPathsTheRepositoryNamesOutOfItAreNotFollowed(t *testing.T) {
	for _, tt := range []struct {
		name   string
		plant  func(f *fixture, outside string)
		note   string
		status string
	}{
		{"include.path", func(f *fixture, outside string) {
			os.WriteFile(filepath.Join(outside, "inc"), []byte("[core]\n\tabbrev = 12\n"), 0o644)
			f.git("config", "include.path", filepath.Join(outside, "inc"))
		}, "include.path", ""},
		{"includeIf", func(f *fixture, outside string) {
			os.WriteFile(filepath.Join(outside, "inc"), []byte("[core]\n\tabbrev = 12\n"), 0o644)
			f.git("config", "includeIf.onbranch:main.path", filepath.Join(outside, "inc"))
		}, "includeif.onbranch:main.path", ""},
		{"core.excludesFile", func(f *fixture, outside string) {
			os.WriteFile(filepath.Join(outside, "ignore"), []byte("*.txt\n"), 0o644)
			f.git("config", "core.excludesFile", filepath.Join(outside, "ignore"))
		}, "core.excludesFile", ""},
		{"core.attributesFile", func(f *fixture, outside string) {
			os.WriteFile(filepath.Join(outside, "attributes"), []byte("*.txt -text\n"), 0o644)
			f.git("config", "core.attributesFile", filepath.Join(outside, "attributes"))
			f.write("a.txt", "b\n") // the same size: hashed, its attributes looked up
		}, "core.attributesFile", " M a.txt\n?? new.txt"},
		{"core.worktree", func(f *fixture, outside string) {
			os.WriteFile(filepath.Join(outside, "listed.txt"), []byte("x\n"), 0o644)
			f.git("config", "core.worktree", outside)
		}, "core.worktree", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("a.txt", "a\n")
			f.commit("first")
			f.write("new.txt", "n\n")
			outside := t.TempDir()
			tt.plant(f, outside)
			stamped := stampAccess(t, outside)
			r, err := Open(f.dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			st, err := r.Status(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			want := "?? new.txt"
			if tt.status != "" {
				want = tt.status
			}
			if got := strings.Join(st.Short(""), "\n"); got != want {
				t.Errorf("status %q; want the project's own, %q", got, want)
			}
			if e := r.Engine(); !strings.Contains(e, "not followed, outside the repository: "+tt.note) {
				t.Errorf("engine %q says nothing of %s", e, tt.note)
			}
			if read := readSince(stamped); len(read) > 0 {
				t.Errorf("read outside the repository: %q", read)
			}
		})
	}
	t.Run("the user's own config", func(t *testing.T) {
		f := newFixture(t)
		f.write("a.txt", "a\n")
		f.commit("first")
		f.write("new.txt", "n\n")
		ignore := filepath.Join(t.TempDir(), "ignore")
		os.WriteFile(ignore, []byte("*.txt\n"), 0o644)
		f.git("config", "--global", "core.excludesFile", ignore)
		_, st := openStatus(t, f.dir, false)
		if len(st.Files) != 0 {
			t.Errorf("the user's excludes file was not applied: %q", st.Short(""))
		}
	})
}

// stampAccess dates back the access time of every file below dir, so
// that a read moves it even under relatime, and returns the stamps; it
// skips the test where the file system keeps no access times.
func stampAccess(t *testing.T, dir string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		fi, _ := os.Stat(p)
		os.Chtimes(p, fi.ModTime().Add(-time.Hour), fi.ModTime())
		out[p] = atime(p)
		return nil
	})
	probe := filepath.Join(t.TempDir(), "probe")
	os.WriteFile(probe, []byte("p"), 0o644)
	fi, _ := os.Stat(probe)
	os.Chtimes(probe, fi.ModTime().Add(-time.Hour), fi.ModTime())
	was := atime(probe)
	os.ReadFile(probe)
	if atime(probe) == was {
		t.Skip("this file system keeps no access times")
	}
	return out
}

// readSince lists the stamped files read since.
func readSince(stamps map[string]int64) []string {
	var read []string
	for p, at := range stamps {
		if atime(p) != at {
			read = append(read, p)
		}
	}
	return read
}

func atime(p string) int64 {
	var st syscall.Stat_t
	if syscall.Stat(p, &st) != nil {
		return 0
	}
	return st.Atim.Nano()
}
