package objects

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/session-hooks/session-hooks/gitdiag/internal/rawfile"
)

// manyCommits makes n commits with messages long enough that the pack's
// commits span several blocks, some of them across a block's end, and
// packs them (git writes commits first, newest first).
func manyCommits(t *testing.T, n int, repack ...string) (string, []plumbing.Hash) {
	dir, git := gitRepo(t)
	git("init", "-q", "-b", "main")
	var in strings.Builder
	for i := range n {
		msg := fmt.Sprintf("commit %d\n\n%s\n", i, strings.Repeat(fmt.Sprintf("line %d of a long message. ", i), 1+i%17))
		fmt.Fprintf(&in, "commit refs/heads/main\nmark :%d\ncommitter t <t@example.com> %d +0000\ndata %d\n%s\n", i+1, 1_600_000_000+i, len(msg), msg)
		if i%50 == 49 { // a merge now and then: two parents
			fmt.Fprintf(&in, "merge :%d\n", i-20)
		}
	}
	cmd := exec.Command("git", "-C", dir, "fast-import", "--quiet")
	cmd.Stdin = strings.NewReader(in.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v\n%s", err, out)
	}
	git(append([]string{"repack", "-adq"}, repack...)...)
	var all []plumbing.Hash
	for _, h := range strings.Fields(git("rev-list", "main")) {
		all = append(all, plumbing.NewHash(h))
	}
	return dir, all
}

// CommitHeader reads the parents and date Commit reads, for every commit of
// a pack: through the mapping, and past the mapping's budget through the
// blocks it keeps (a commit across two blocks included).
func TestCommitHeaderReadsWhatCommitReads(t *testing.T) {
	dir, all := manyCommits(t, 3000)
	for _, mapped := range []bool{true, false} {
		s, err := OpenStore(filepath.Join(dir, ".git", "objects"))
		if err != nil {
			t.Fatal(err)
		}
		if !mapped {
			s.mappedLimit = 0
		}
		for _, h := range all {
			c, err := s.Commit(h)
			if err != nil {
				t.Fatal(err)
			}
			parents, when, err := s.CommitHeader(h)
			if err != nil || fmt.Sprint(parents) != fmt.Sprint(c.Parents) || when != c.When {
				t.Fatalf("mapped %v, %s: %v at %d (%v), Commit says %v at %d", mapped, h, parents, when, err, c.Parents, c.When)
			}
		}
		var blocks int
		for _, p := range s.packList() {
			blocks += len(p.blocks)
		}
		if !mapped && blocks == 0 {
			t.Error("no block was read: the test no longer reads past the mapping")
		}
		s.Close()
	}
}

// Grafts, a replaced commit and a shallow boundary change what CommitHeader
// says as they change what Commit says.
func TestCommitHeaderAppliesGraftsReplacementsAndTheShallowBoundary(t *testing.T) {
	dir, all := manyCommits(t, 100)
	s, err := OpenStore(filepath.Join(dir, ".git", "objects"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	grafted, shallow, replaced := all[10], all[20], all[30]
	s.Grafts = map[plumbing.Hash][]plumbing.Hash{grafted: {all[50]}}
	s.Shallow = map[plumbing.Hash]bool{shallow: true}
	s.Replace = map[plumbing.Hash]plumbing.Hash{replaced: all[60]}
	for _, h := range []plumbing.Hash{grafted, shallow, replaced, all[40]} {
		c, err := s.Commit(h)
		if err != nil {
			t.Fatal(err)
		}
		parents, when, err := s.CommitHeader(h)
		if err != nil || fmt.Sprint(parents) != fmt.Sprint(c.Parents) || when != c.When {
			t.Errorf("%s: %v at %d (%v), Commit says %v at %d", h, parents, when, err, c.Parents, c.When)
		}
	}
	if p, _, _ := s.CommitHeader(shallow); len(p) != 0 {
		t.Errorf("a commit at the shallow boundary has parents %v", p)
	}
}

// A header that is not a commit's (no tree, a parent that is no id, no
// committer) is left to Commit, which reads or refuses it as before.
func TestCommitHeaderReadsOnlyACommitsHeader(t *testing.T) {
	h := func(s string) []byte { return []byte(s) }
	id := strings.Repeat("a", 40)
	tests := []struct {
		name    string
		data    []byte
		done    bool
		parents int
		when    int64
	}{
		{"a commit", h("tree " + id + "\nparent " + id + "\nparent " + id + "\nauthor a <a> 1 +0000\ncommitter c <c> 7 +0000\n\nmsg"), true, 2, 7},
		{"cut before the committer line ends", h("tree " + id + "\ncommitter c <c> 7"), false, 0, 0},
		{"no tree", h("parent " + id + "\ncommitter c <c> 7 +0000\n"), true, 0, 0},
		{"a parent that is no id", h("tree " + id + "\nparent xyz\ncommitter c <c> 7 +0000\n"), true, 0, 0},
		{"no committer", h("tree " + id + "\nauthor a <a> 1 +0000\n\nmsg"), true, 0, 0},
	}
	for _, tt := range tests {
		parents, when, done := commitHeader(tt.data)
		if done != tt.done || len(parents) != tt.parents || when != tt.when {
			t.Errorf("%s: %d parents at %d, done %v", tt.name, len(parents), when, done)
		}
	}
}

// A gc beside a run packs the loose objects and deletes them: a store
// opened before reads them from the new pack (it scans the packs again
// once an object is found nowhere), the fast guard beside gitdiag's
// gc-in-a-loop test, which -short skips.
func TestAnObjectAGcPackedAfterTheStoreOpenedIsRead(t *testing.T) {
	dir, git := gitRepo(t)
	git("init", "-q", "-b", "main")
	git("commit", "-q", "--allow-empty", "-m", "one")
	git("commit", "-q", "--allow-empty", "-m", "two")
	head := plumbing.NewHash(strings.TrimSpace(git("rev-parse", "HEAD")))
	parent := plumbing.NewHash(strings.TrimSpace(git("rev-parse", "HEAD~1")))
	s, err := OpenStore(filepath.Join(dir, ".git", "objects"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Commit(head); err != nil {
		t.Fatal(err)
	}
	git("gc", "-q")
	if _, err := os.Stat(filepath.Join(dir, ".git", "objects", parent.String()[:2], parent.String()[2:])); err == nil {
		t.Fatal("the gc left the object loose: the test no longer reads a new pack")
	}
	if c, err := s.Commit(parent); err != nil || c.Message != "one\n" {
		t.Errorf("after the gc: %+v, %v", c, err)
	}
}

// A commit packed whole (here with no delta at all) is read as a header:
// through the mapping within its budget (no block read), its message never
// inflated whole nor kept.
func TestAPackedCommitIsReadAsAHeaderOnly(t *testing.T) {
	dir, all := manyCommits(t, 50, "--window=0")
	s, err := OpenStore(filepath.Join(dir, ".git", "objects"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, h := range all {
		if _, _, err := s.CommitHeader(h); err != nil {
			t.Fatal(err)
		}
	}
	if len(s.cache) != 0 || len(s.packList()[0].blocks) != 0 {
		t.Errorf("%d objects decoded whole, %d blocks read, for commits read as headers", len(s.cache), len(s.packList()[0].blocks))
	}
}

// An object not found in a partial clone is said to be one git would
// fetch; in a whole clone, only not found.
func TestANotFoundObjectNamesThePromisorOfAPartialClone(t *testing.T) {
	s := writePack(t, []packEntry{{ID: id("x"), Type: TypeBlob, Data: []byte("x")}})
	if _, _, err := s.Read(id("gone")); !errors.Is(err, ErrNotFound) || strings.Contains(err.Error(), "partial") {
		t.Errorf("a whole clone: %v", err)
	}
	s.Promisor = "upstream"
	if _, _, err := s.Read(id("gone")); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "partial clone; git would fetch the object from upstream") {
		t.Errorf("a partial clone: %v", err)
	}
}

// Objects in the directories objects/info/alternates names are read, by an
// absolute path or one relative to the objects directory; comments and
// blank lines are not directories.
func TestObjectsInAnAlternateAreRead(t *testing.T) {
	other := writePack(t, []packEntry{{ID: id("shared"), Type: TypeBlob, Data: []byte("from the alternate")}})
	other.Close()
	for name, line := range map[string]string{"absolute": other.dir, "relative": "../../" + filepath.Base(other.dir)} {
		dir := filepath.Join(filepath.Dir(other.dir), "mine-"+name, "objects")
		os.MkdirAll(filepath.Join(dir, "info"), 0o755)
		os.WriteFile(filepath.Join(dir, "info", "alternates"), []byte("# shared objects\n\n"+line+"\n"), 0o644)
		s, err := OpenStore(dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, data, err := s.Read(id("shared")); err != nil || string(data) != "from the alternate" {
			t.Errorf("%s: %q, %v", name, data, err)
		}
		s.Close()
	}
}

// Two entries in one window of the mapping count one window.
func TestEntriesInOneWindowCountItOnce(t *testing.T) {
	s := writePack(t, []packEntry{{ID: id("a"), Type: TypeBlob, Data: []byte("a")}, {ID: id("b"), Type: TypeBlob, Data: []byte("b")}})
	if s.packList()[0].data.Bytes() == nil {
		t.Skip("packs are not mapped here")
	}
	s.Read(id("a"))
	s.Read(id("b"))
	if s.mappedWindows != 1 {
		t.Errorf("%d windows counted for two entries in one", s.mappedWindows)
	}
}

// The block reader reads a file byte by byte and in slices across its
// blocks' ends, the same bytes, then says the file has ended.
func TestTheBlockReaderReadsAcrossBlocksToTheEnd(t *testing.T) {
	content := make([]byte, 2*blockSize+1234)
	for i := range content {
		content[i] = byte(i * 7)
	}
	path := filepath.Join(t.TempDir(), "pack-x.pack")
	os.WriteFile(path, content, 0o644)
	f, err := rawfile.OpenMapped(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, p := &Store{}, &pack{data: f}
	from := int64(blockSize - 3)
	r := &blockReader{s: s, p: p, off: from}
	var got []byte
	for range 10 {
		c, err := r.ReadByte()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, c)
	}
	rest, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(append(got, rest...), content[from:]) {
		t.Errorf("read %d bytes, %v; want %d", len(got)+len(rest), err, len(content[from:]))
	}
	if _, err := r.ReadByte(); err != io.EOF {
		t.Errorf("past the end: %v", err)
	}
}
