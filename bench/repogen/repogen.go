// Package repogen builds large synthetic git repositories for benchmarks:
// many files in many directories, a long history in one pack, and a work
// tree with a few modified, untracked and ignored files. It drives
// `git fast-import`, so building a million objects takes seconds.
package repogen

import (
	"bufio"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Spec describes a repository.
type Spec struct {
	Files          int // tracked files
	Dirs           int // directories holding them (about)
	Commits        int // history after the first commit
	FilesPerCommit int // files each history commit changes
	Modified       int // tracked files changed in the work tree
	Untracked      int // untracked files at the top, plus two untracked directories
	Ignored        int // files in the ignored build/ directory
}

// Large is the repository of the performance targets: 30k files in 13k
// directories, about a million objects in one pack.
var Large = Spec{Files: 30000, Dirs: 13000, Commits: 23000, FilesPerCommit: 10, Modified: 5, Untracked: 3, Ignored: 200}

// Flat is many files in few, large directories (38.5k files in about 405
// directories), the second shape of issue 20's table.
var Flat = Spec{Files: 38500, Dirs: 405, Commits: 18000, FilesPerCommit: 10, Modified: 5, Untracked: 3, Ignored: 200}

// Deep is a long history over few files (4.8k files, 82k commits), the
// third shape.
var Deep = Spec{Files: 4800, Dirs: 600, Commits: 82000, FilesPerCommit: 10, Modified: 5, Untracked: 3, Ignored: 200}

// Shapes are the specs by name, for genrepo -size.
var Shapes = map[string]Spec{"large": Large, "flat": Flat, "deep": Deep, "small": Small}

// Small is a 100-file repository with a short history.
var Small = Spec{Files: 100, Dirs: 10, Commits: 50, FilesPerCommit: 3, Modified: 5, Untracked: 3, Ignored: 20}

// Build creates the repository in dir (which must not exist or be empty).
func Build(dir string, s Spec) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	git := func(stdin io.Reader, args ...string) error {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Stdin = dir, stdin
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return nil
	}
	if err := git(nil, "init", "-q", "-b", "main"); err != nil {
		return err
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(stream(pw, s)) }()
	if err := git(pr, "fast-import", "--quiet"); err != nil {
		return err
	}
	if err := git(nil, "checkout", "-q", "-f", "main"); err != nil {
		return err
	}
	// Rebuild the index a second after checkout so no entry is racily
	// clean: a real index is rarely younger than the files it describes.
	time.Sleep(1100 * time.Millisecond)
	if err := git(nil, "read-tree", "HEAD"); err != nil {
		return err
	}
	if err := git(nil, "update-index", "-q", "--refresh"); err != nil {
		return err
	}
	return dirty(dir, s)
}

// paths spreads s.Files files over about s.Dirs directories three levels deep.
func paths(s Spec) []string {
	leaves := max(1, s.Dirs*9/10)
	l1 := max(1, int(cbrt(float64(leaves))))
	l2 := max(1, l1)
	l3 := max(1, leaves/(l1*l2))
	var dirs []string
	for a := 0; a < l1; a++ {
		for b := 0; b < l2; b++ {
			for c := 0; c < l3; c++ {
				dirs = append(dirs, fmt.Sprintf("src%02d/mod%02d/pkg%03d", a, b, c))
			}
		}
	}
	out := make([]string, s.Files)
	for i := range out {
		out[i] = fmt.Sprintf("%s/file%05d.go", dirs[i%len(dirs)], i)
	}
	return out
}

func cbrt(x float64) float64 {
	r := x
	for i := 0; i < 60; i++ {
		r = r - (r*r*r-x)/(3*r*r)
	}
	return r
}

func content(path string, version int) string {
	return fmt.Sprintf("package p\n\n// %s, version %d\nfunc F() int { return %d }\n", path, version, version)
}

// stream writes the fast-import stream: one commit with every file, then
// the history, each commit changing a few files.
func stream(w io.Writer, s Spec) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	files := paths(s)
	when := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	data := func(body string) {
		fmt.Fprintf(bw, "data %d\n%s\n", len(body), body)
	}
	commit := func(msg string) {
		when += 60
		fmt.Fprintf(bw, "commit refs/heads/main\ncommitter Bench <bench@example.com> %d +0000\n", when)
		data(msg)
	}
	commit("Initial import")
	fmt.Fprintf(bw, "M 100644 inline .gitignore\n")
	data("build/\n*.log\n")
	for _, p := range files {
		fmt.Fprintf(bw, "M 100644 inline %s\n", p)
		data(content(p, 0))
	}
	rng := rand.New(rand.NewSource(1))
	for c := 1; c <= s.Commits; c++ {
		commit(fmt.Sprintf("Change %d files (commit %d)", s.FilesPerCommit, c))
		for k := 0; k < s.FilesPerCommit; k++ {
			p := files[rng.Intn(len(files))]
			fmt.Fprintf(bw, "M 100644 inline %s\n", p)
			data(content(p, c))
		}
	}
	fmt.Fprintf(bw, "reset refs/tags/v1.0\nfrom refs/heads/main\n\n")
	return bw.Flush()
}

// dirty makes the work tree look like one in use.
func dirty(dir string, s Spec) error {
	files := paths(s)
	write := func(p, body string) error {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		return os.WriteFile(full, []byte(body), 0o644)
	}
	for i := 0; i < s.Modified && i < len(files); i++ {
		p := files[(i*7919)%len(files)]
		if err := write(p, content(p, -1)+"// edited\n"); err != nil {
			return err
		}
	}
	for i := 0; i < s.Untracked; i++ {
		if err := write(fmt.Sprintf("notes-%d.txt", i), "scratch\n"); err != nil {
			return err
		}
	}
	for _, p := range []string{"newpkg/a.go", "newpkg/sub/b.go", files[0][:strings.LastIndexByte(files[0], '/')] + "/new_test.go"} {
		if err := write(p, "package p\n"); err != nil {
			return err
		}
	}
	for i := 0; i < s.Ignored; i++ {
		if err := write(fmt.Sprintf("build/out/obj%04d.o", i), "object\n"); err != nil {
			return err
		}
	}
	return nil
}
