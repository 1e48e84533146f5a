package gitdiag

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/session-hooks/session-hooks/bench/repogen"
)

// benchRepo builds (once, then reuses from the temporary directory) a
// generated repository for the benchmarks.
func benchRepo(b *testing.B, name string, spec repogen.Spec) string {
	b.Helper()
	root := filepath.Join(os.TempDir(), "session-hooks-bench")
	dir := filepath.Join(root, name)
	marker := dir + ".complete"
	if _, err := os.Stat(marker); err == nil {
		// A copied or touched tree has stale stat data in the index, which
		// makes gitdiag hash every file (it never writes the index): let
		// git refresh it, as any git command in the session would.
		refresh := exec.Command("git", "update-index", "-q", "--refresh")
		refresh.Dir = dir
		refresh.Run()
		return dir
	}
	os.RemoveAll(dir)
	b.Logf("generating the %s repository in %s", name, dir)
	if err := repogen.Build(dir, spec); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

var benchSizes = []struct {
	name string
	spec repogen.Spec
}{
	{"small", repogen.Small},
	{"large", repogen.Large},
}

// BenchmarkStatus times the work tree status, with `git status
// --porcelain` (whole process) beside it for reference.
func BenchmarkStatus(b *testing.B) {
	for _, size := range benchSizes {
		dir := benchRepo(b, size.name, size.spec)
		b.Run(size.name+"/gitdiag", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r, err := Open(dir)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := r.Status(context.Background()); err != nil {
					b.Fatal(err)
				}
				r.Close()
			}
		})
		b.Run(size.name+"/git-cli", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				cmd := exec.Command("git", "status", "--porcelain")
				cmd.Dir = dir
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLog times five decorated commits. Its cost must not grow with
// the history: the large repository has 200 times the objects of the small.
func BenchmarkLog(b *testing.B) {
	for _, size := range benchSizes {
		dir := benchRepo(b, size.name, size.spec)
		b.Run(size.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r, err := Open(dir)
				if err != nil {
					b.Fatal(err)
				}
				if c, err := r.Log(context.Background(), 5, true); err != nil || len(c) != 5 {
					b.Fatal(len(c), err)
				}
				r.Close()
			}
		})
	}
}

// BenchmarkRunInit times the probes of a session start, as the hook runs
// them: on a small repository they are most of the hook's own work.
func BenchmarkRunInit(b *testing.B) {
	for _, size := range benchSizes {
		dir := benchRepo(b, size.name, size.spec)
		b.Run(size.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				results, _ := Run(context.Background(), dir, []Probe{Branch, Log(5, true), StatusShort, DiffStatUpstream})
				for _, r := range results {
					if r.Err != nil {
						b.Fatal(r.Command, r.Err)
					}
				}
			}
		})
	}
}
