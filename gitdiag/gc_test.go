package gitdiag

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A gc beside the hook replaces every pack and moves loose refs into
// packed-refs while the probes read: git rescans and retries, and so must
// the probes, which must never fail or answer differently.
func TestProbesSurviveAGcRunningBesideThem(t *testing.T) {
	if testing.Short() {
		t.Skip("runs git gc in a loop for a few seconds")
	}
	f := newFixture(t)
	for i := range 40 {
		f.write(fmt.Sprintf("dir%d/file.txt", i%7), strings.Repeat(fmt.Sprintf("line %d\n", i), i+1))
		f.commit(fmt.Sprint("commit ", i))
	}
	f.write("dir1/file.txt", "changed\n")
	want := lines(f.git("log", "--oneline", "-5", "--decorate"))
	wantStatus := lines(f.git("status", "--short"))

	stop := make(chan struct{})
	var rounds atomic.Int32
	done := make(chan error, 1)
	go func() {
		defer close(done)
		head := strings.TrimSpace(f.git("rev-parse", "main"))
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			// Each round writes a pack with a new name (a different
			// window gives different deltas), deletes the old one, and
			// moves the loose branch ref into packed-refs and back.
			for _, args := range [][]string{
				{"repack", "-a", "-d", "-f", "-q", fmt.Sprint("--window=", []int{0, 10}[i%2])},
				{"pack-refs", "--all", "--prune"},
				{"update-ref", "refs/heads/main", head},
			} {
				cmd := exec.Command("git", args...)
				cmd.Dir = f.dir
				if out, err := cmd.CombinedOutput(); err != nil {
					done <- fmt.Errorf("git %v: %v %s", args, err, out)
					return
				}
			}
			rounds.Add(1)
		}
	}()
	stopGC := func() error { close(stop); return <-done } // before the directory goes
	deadline := time.Now().Add(4 * time.Second)
	reads := 0
	for time.Now().Before(deadline) || rounds.Load() < 10 {
		if time.Now().After(deadline.Add(20 * time.Second)) {
			break
		}
		if err := probeOnce(f.dir, want, wantStatus); err != nil {
			stopGC()
			t.Fatalf("after %d reads and %d gc rounds: %v", reads, rounds.Load(), err)
		}
		reads++
	}
	if err := stopGC(); err != nil {
		t.Fatal(err)
	}
	if rounds.Load() < 10 {
		t.Fatalf("only %d gc rounds ran beside %d reads", rounds.Load(), reads)
	}
	t.Logf("%d reads beside %d gc rounds", reads, rounds.Load())
}

func probeOnce(dir string, want, wantStatus []string) error {
	r, err := Open(dir)
	if err != nil {
		return err
	}
	defer r.Close()
	commits, err := r.Log(context.Background(), 5, true)
	if err != nil {
		return fmt.Errorf("log: %w", err)
	}
	var got []string
	for _, c := range commits {
		got = append(got, c.Oneline())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		return fmt.Errorf("log differs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	st, err := r.Status(context.Background())
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	if s := st.Short(""); strings.Join(s, "\n") != strings.Join(wantStatus, "\n") {
		return fmt.Errorf("status differs: %q, want %q", s, wantStatus)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "index.lock")); err == nil {
		return fmt.Errorf("index.lock left")
	}
	return nil
}

func TestLeftoversOfAnInterruptedGcAreIgnoredAsByGit(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commit("first")
	f.git("gc", "-q")
	f.write("a.txt", "b\n")
	f.commit("second")
	pack := f.path(".git/objects/pack")
	for name, content := range map[string]string{
		"pack-0123456789012345678901234567890123456789.idx": "\xfftOc\x00\x00\x00\x02", // its pack is gone
		".tmp-4242-pack-abc.idx":                            "",                        // an interrupted gc's
		"tmp_idx_XXXXXX":                                    "",
	} {
		os.WriteFile(filepath.Join(pack, name), []byte(content), 0o444)
	}
	// an index cut short, beside its pack
	os.WriteFile(filepath.Join(pack, "pack-9876543210987654321098765432109876543210.idx"), nil, 0o444)
	os.WriteFile(filepath.Join(pack, "pack-9876543210987654321098765432109876543210.pack"), nil, 0o444)
	assertMatchesGit(t, f, "")
}

// The decorations list the refs after the run read packed-refs for
// another question: a pack-refs in between moved a loose branch into a new
// packed-refs and deleted its file, and the copy read before lacks it.
func TestDecorationsSeeABranchPackedAfterPackedRefsWasRead(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a")
	f.commit("first")
	f.git("branch", "feature")
	f.git("pack-refs", "--all")
	f.git("branch", "late")
	r, err := Open(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.resolveRef("refs/heads/feature"); err != nil { // reads packed-refs
		t.Fatal(err)
	}
	f.git("pack-refs", "--all") // late: into packed-refs, its loose file gone
	commits, err := r.Log(context.Background(), 1, true)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range commits {
		got = append(got, c.Oneline())
	}
	compare(t, "log --decorate", lines(f.git("log", "--oneline", "-1", "--decorate")), got)
}

func TestSameVersionTellsAFileReplacedByRenameFromTheOneRead(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "packed-refs")
	os.WriteFile(path, []byte("same size\n"), 0o644)
	read, _ := os.Stat(path)
	stat := func() (os.FileInfo, error) { return os.Stat(path) }

	if fi, err := stat(); !sameVersion(read, fi, err) {
		t.Error("the file as it was read is another version")
	}
	os.WriteFile(path+".lock", []byte("same size\n"), 0o644)
	os.Chtimes(path+".lock", read.ModTime(), read.ModTime())
	os.Rename(path+".lock", path) // as git writes it: same size, same time, another file
	if fi, err := stat(); sameVersion(read, fi, err) {
		t.Error("a file renamed over the one read is the same version")
	}
	replaced, _ := os.Stat(path)
	os.Chtimes(path, replaced.ModTime().Add(time.Second), replaced.ModTime().Add(time.Second))
	if fi, err := stat(); sameVersion(replaced, fi, err) {
		t.Error("a file rewritten in place at another time is the same version")
	}
	os.Remove(path)
	if fi, err := stat(); sameVersion(read, fi, err) {
		t.Error("a removed file is the version read")
	}
	if fi, err := stat(); !sameVersion(nil, fi, err) {
		t.Error("no file, then still none, is another version")
	}
	os.WriteFile(path, nil, 0o644)
	if fi, err := stat(); sameVersion(nil, fi, err) {
		t.Error("a file where there was none is the same version")
	}
}
