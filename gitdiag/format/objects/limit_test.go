package objects

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// A few hundred bytes of zlib can claim hundreds of megabytes: a commit,
// a tree or a tag read for its header must be refused by its declared size,
// before anything is allocated for it.
func TestAnObjectClaimingMoreThanItsUseAllowsIsRefusedBeforeInflating(t *testing.T) {
	dir := t.TempDir()
	h := plumbing.NewHash("0123456789abcdef0123456789abcdef01234567")
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write([]byte("commit 314572800\x00tree "))
	w.Write(bytes.Repeat([]byte("a"), 1<<16))
	w.Close()
	p := filepath.Join(dir, h.String()[:2], h.String()[2:])
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, z.Bytes(), 0o444)
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Commit(h); err == nil || !strings.Contains(err.Error(), "over the 16 MiB its use allows") {
		t.Errorf("a 300 MiB commit: %v", err)
	}
	if _, _, err := s.ReadLimit(h, 1<<10); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("ReadLimit 1 KiB: %v", err)
	}
}

func TestACommitOverItsBoundIsRefusedPackedAsLoose(t *testing.T) {
	dir, git := gitRepo(t)
	git("init", "-q")
	msg := filepath.Join(t.TempDir(), "msg")
	os.WriteFile(msg, append([]byte("big\n\n"), bytes.Repeat([]byte("line of a long message\n"), (MaxCommitSize/23)+1000)...), 0o644)
	git("commit", "-q", "--allow-empty", "-F", msg)
	git("commit", "-q", "--allow-empty", "-m", "small")
	big := plumbing.NewHash(strings.TrimSpace(git("rev-parse", "HEAD~1")))
	small := plumbing.NewHash(strings.TrimSpace(git("rev-parse", "HEAD")))
	for _, state := range []string{"loose", "packed"} {
		if state == "packed" {
			git("gc", "-q")
		}
		s, err := OpenStore(filepath.Join(dir, ".git", "objects"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Commit(big); err == nil || !strings.Contains(err.Error(), "its use allows") {
			t.Errorf("%s: a commit of %d MiB read: %v", state, MaxCommitSize>>20, err)
		}
		if c, err := s.Commit(small); err != nil || c.Message != "small\n" {
			t.Errorf("%s: the small commit: %v", state, err)
		}
		if _, data, err := s.Read(big); err != nil || len(data) <= MaxCommitSize {
			t.Errorf("%s: read without the commit's bound: %d bytes, %v", state, len(data), err)
		}
	}
}

// An object of exactly the limit is read, loose, packed, as a delta and
// from the cache; one byte less refuses it.
func TestAnObjectOfExactlyTheLimitIsRead(t *testing.T) {
	dir, git := gitRepo(t)
	git("init", "-q")
	base := strings.Repeat("line of a file that a delta can share\n", 60)
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte(base), 0o644)
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte(base+"one more line\n"), 0o644)
	git("add", "-A")
	git("commit", "-q", "-m", "two similar files")
	ids := map[string]int{}
	for _, f := range []string{"a.txt", "b.txt"} {
		ids[strings.TrimSpace(git("rev-parse", "HEAD:"+f))] = len(base)
	}
	ids[strings.TrimSpace(git("rev-parse", "HEAD:b.txt"))] = len(base) + len("one more line\n")
	for _, state := range []string{"loose", "packed"} {
		if state == "packed" {
			git("gc", "-q", "--aggressive")
		}
		s, err := OpenStore(filepath.Join(dir, ".git", "objects"))
		if err != nil {
			t.Fatal(err)
		}
		for id, size := range ids {
			h := plumbing.NewHash(id)
			for range 2 { // the second read comes from the cache when packed
				if _, b, err := s.ReadLimit(h, int64(size)); err != nil || len(b) != size {
					t.Errorf("%s: %s of %d bytes with a limit of %d: %d bytes, %v", state, id, size, size, len(b), err)
				}
			}
			if _, _, err := s.ReadLimit(h, int64(size-1)); err == nil {
				t.Errorf("%s: %s of %d bytes read with a limit of %d", state, id, size, size-1)
			}
		}
	}
}

// A loose object larger on disk than any object within the bound could be
// compressed is refused by its file's size, unread: read whole first, a
// 250 MiB loose commit cost 509 MB before its header was checked.
func TestALooseObjectLargerOnDiskThanItsBoundAllowsIsNotRead(t *testing.T) {
	dir := t.TempDir()
	h := plumbing.NewHash("0123456789abcdef0123456789abcdef01234567")
	p := filepath.Join(dir, h.String()[:2], h.String()[2:])
	os.MkdirAll(filepath.Dir(p), 0o755)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("x"))
	f.Truncate(compressedBound(MaxCommitSize) + 1) // sparse: costs no disk
	f.Close()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = s.Commit(h)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "its use allows") {
		t.Errorf("a loose commit past its bound on disk: %v", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("refusing it allocated %d KiB", got>>10)
	}
}

// A loose object that compresses to more than itself (random bytes,
// stored) is within its bound on disk as long as the object is: zlib's
// framing is allowed for, not refused.
func TestAnIncompressibleLooseObjectAtItsBoundIsRead(t *testing.T) {
	dir := t.TempDir()
	content := make([]byte, 8<<20)
	rand.NewChaCha8([32]byte{1}).Read(content)
	h := plumbing.ComputeHash(plumbing.BlobObject, content)
	var z bytes.Buffer
	w, _ := zlib.NewWriterLevel(&z, zlib.NoCompression)
	fmt.Fprintf(w, "blob %d\x00", len(content))
	w.Write(content)
	w.Close()
	if z.Len() <= len(content) {
		t.Fatalf("stored, %d bytes take %d", len(content), z.Len())
	}
	p := filepath.Join(dir, h.String()[:2], h.String()[2:])
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, z.Bytes(), 0o444)
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, data, err := s.ReadLimit(h, int64(len(content))); err != nil || !bytes.Equal(data, content) {
		t.Errorf("an incompressible object of exactly the bound: %d bytes, %v", len(data), err)
	}
}
