package objects

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"github.com/session-hooks/session-hooks/internal/testenv"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// writeIndex writes a version 2 pack index of names (each at offset
// 12 + 100*i of its pack) and opens it.
func writeIndex(t *testing.T, names []plumbing.Hash) *packIndex {
	t.Helper()
	sort.Slice(names, func(i, j int) bool { return bytes.Compare(names[i][:], names[j][:]) < 0 })
	var b bytes.Buffer
	b.Write([]byte{0xff, 't', 'O', 'c', 0, 0, 0, 2})
	for i := 0; i < 256; i++ {
		n := sort.Search(len(names), func(j int) bool { return int(names[j][0]) > i })
		binary.Write(&b, binary.BigEndian, uint32(n))
	}
	for _, h := range names {
		b.Write(h[:])
	}
	b.Write(make([]byte, 4*len(names))) // CRCs
	for i := range names {
		binary.Write(&b, binary.BigEndian, uint32(12+100*i))
	}
	b.Write(make([]byte, 40)) // checksums
	path := filepath.Join(t.TempDir(), "pack-test.idx")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := openPackIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.f.Close() })
	return p
}

func TestFindLocatesEveryNameAndNothingElse(t *testing.T) {
	rng := rand.New(rand.NewSource(20))
	random := func() (h plumbing.Hash) { rng.Read(h[:]); return h }
	uniform := make([]plumbing.Hash, 20000)
	for i := range uniform {
		uniform[i] = random()
	}
	// Names the guess places badly: one bucket, and all of it crowded at
	// one end of the range the next bytes span.
	crowded := make([]plumbing.Hash, 3000)
	for i := range crowded {
		crowded[i] = random()
		crowded[i][0], crowded[i][1], crowded[i][2] = 0x42, 0xff, 0xff
		if i%2 == 0 {
			crowded[i][1], crowded[i][2] = 0, 0
		}
	}
	single := []plumbing.Hash{random()}
	for name, names := range map[string][]plumbing.Hash{"uniform": uniform, "crowded": crowded, "single": single} {
		t.Run(name, func(t *testing.T) {
			p := writeIndex(t, names)
			for i, h := range names {
				if off, ok := p.find(h); !ok || off != int64(12+100*i) {
					t.Fatalf("find(%s) = %d, %v; want %d, true", h, off, ok, 12+100*i)
				}
				// The names just beside h are not in the index.
				for _, d := range []int{-1, 1} {
					near := h
					near[19] += byte(d)
					if j := sort.Search(len(names), func(j int) bool { return bytes.Compare(names[j][:], near[:]) >= 0 }); j < len(names) && names[j] == near {
						continue
					}
					if off, ok := p.find(near); ok {
						t.Fatalf("find(%s) = %d, true for a name not in the index", near, off)
					}
				}
			}
			for i := 0; i < 1000; i++ {
				h := random()
				j := sort.Search(len(names), func(j int) bool { return bytes.Compare(names[j][:], h[:]) >= 0 })
				if _, ok := p.find(h); ok != (j < len(names) && names[j] == h) {
					t.Fatalf("find(%s) = %v", h, ok)
				}
			}
		})
	}
}

// TestChunkReaderReadsWhatAMappingReads covers the pread path (Windows, and
// files that cannot be mapped): entries that end inside the first small
// read, span the growing reads, and reach the end of the file.
func TestChunkReaderReadsWhatAMappingReads(t *testing.T) {
	data := make([]byte, 300<<10)
	rand.New(rand.NewSource(1)).Read(data)
	for _, off := range []int64{0, 1, 511, 512, 100000, int64(len(data)) - 3, int64(len(data))} {
		c := &chunkReader{f: bytes.NewReader(data), off: off, next: 512}
		var got []byte
		if b, err := c.ReadByte(); err == nil {
			got = append(got, b)
		}
		rest, err := io.ReadAll(c)
		if err != nil {
			t.Fatalf("offset %d: %v", off, err)
		}
		got = append(got, rest...)
		if !bytes.Equal(got, data[off:]) {
			t.Errorf("offset %d: read %d bytes, not the %d from there to the end", off, len(got), len(data)-int(off))
		}
		if _, err := c.ReadByte(); err != io.EOF {
			t.Errorf("offset %d: ReadByte at the end = %v, want EOF", off, err)
		}
	}
}

// TestObjectsPastTheMappedBudgetReadAsWithin reads every object of a
// packed repository with deltas three ways: all through the mapping, past
// a budget of one window, and with none mapped; each must be what git
// prints.
func TestObjectsPastTheMappedBudgetReadAsWithin(t *testing.T) {
	dir, git := gitRepo(t)
	git("init", "-q")
	rng := rand.New(rand.NewSource(3))
	body := make([]byte, 100<<10) // versions of 100 KiB files: many windows, deltas between them
	rng.Read(body)
	for c := 0; c < 12; c++ {
		for f := 0; f < 4; f++ {
			copy(body[rng.Intn(len(body)-64):], fmt.Sprintf("commit %d file %d", c, f))
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d", f)), body, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		git("add", ".")
		git("commit", "-qm", fmt.Sprint("commit ", c))
	}
	git("gc", "-q", "--aggressive")
	want := map[plumbing.Hash]string{} // raw contents, as git stores them
	for _, line := range strings.Fields(git("cat-file", "--batch-all-objects", "--batch-check=%(objectname)")) {
		id := plumbing.NewHash(line)
		want[id] = git("cat-file", strings.TrimSpace(git("cat-file", "-t", line)), line)
	}
	for _, limit := range []int{1 << 20, 1, 0} {
		store, err := OpenStore(filepath.Join(dir, ".git", "objects"))
		if err != nil {
			t.Fatal(err)
		}
		store.mappedLimit = limit
		for id, raw := range want {
			_, data, err := store.Read(id)
			if err != nil {
				t.Fatalf("limit %d: %s: %v", limit, id, err)
			}
			if string(data) != raw {
				t.Fatalf("limit %d: %s reads %d bytes, not git's %d", limit, id, len(data), len(raw))
			}
		}
		store.Close()
	}
}

// The cache of decoded entries is bounded in bytes: counted in objects
// alone, 256 blobs of up to 1 MiB were kept, and a diff stat of 120 files
// of 800 KB peaked at 300 MB.
func TestTheCacheOfDecodedObjectsStaysWithinItsBytes(t *testing.T) {
	dir, git := gitRepo(t)
	git("init", "-q")
	n := 2 * cacheBytes / (700 << 10) // twice what the cache may hold
	for f := range n {
		body := strings.Repeat(fmt.Sprintf("line of file %d\n", f), (700<<10)/16)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d", f)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("add", ".")
	git("commit", "-qm", "big files")
	git("gc", "-q")
	store, err := OpenStore(filepath.Join(dir, ".git", "objects"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	for _, line := range strings.Fields(git("ls-tree", "-r", "--format=%(objectname)", "HEAD")) {
		if _, _, err := store.Read(plumbing.NewHash(line)); err != nil {
			t.Fatal(err)
		}
		held := 0
		for _, o := range store.cache {
			held += len(o.data)
		}
		if held != store.cachedBytes || held > cacheBytes || len(store.cache) != len(store.order) {
			t.Fatalf("cache holds %d bytes in %d objects (counted %d, %d in order); at most %d", held, len(store.cache), store.cachedBytes, len(store.order), cacheBytes)
		}
	}
	if store.cachedBytes < cacheBytes/2 {
		t.Errorf("cache holds %d bytes after reading %d files of 700 KB: it keeps too little", store.cachedBytes, n)
	}
}

// Two readers that decode the same entry at once (the diff stat's workers
// sharing a delta base) keep it once, and count its bytes once.
func TestAnObjectDecodedTwiceIsKeptOnce(t *testing.T) {
	s := &Store{cache: map[packOffset]cachedObject{}}
	key := packOffset{0, 42}
	for range 2 {
		s.keep(key, cachedObject{TypeBlob, make([]byte, 100)})
	}
	if len(s.cache) != 1 || len(s.order) != 1 || s.cachedBytes != 100 {
		t.Errorf("%d objects, %d in order, %d bytes; want 1, 1, 100", len(s.cache), len(s.order), s.cachedBytes)
	}
}

// gitRepo is an empty directory for a repository, and git run in it.
func gitRepo(t *testing.T) (string, func(args ...string) string) {
	_, err := exec.LookPath("git")
	testenv.Need(t, "the git CLI (the oracle)", err)
	dir := t.TempDir()
	return dir, func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
}

func TestTheCacheKeepsAtMostCacheEntriesObjects(t *testing.T) {
	s := &Store{cache: map[packOffset]cachedObject{}}
	for i := range cacheEntries + 10 {
		s.keep(packOffset{0, int64(i)}, cachedObject{TypeBlob, []byte("x")})
	}
	if len(s.cache) != cacheEntries || len(s.order) != cacheEntries || s.cachedBytes != cacheEntries {
		t.Errorf("%d objects, %d in order, %d bytes; want %d of each", len(s.cache), len(s.order), s.cachedBytes, cacheEntries)
	}
	if _, ok := s.cache[packOffset{0, 0}]; ok {
		t.Error("the oldest object was kept, not the newest")
	}
}
