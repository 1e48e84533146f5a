package index

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// realIndexes builds small repositories with git and returns their index
// bodies (without the checksum) in versions 2, 3 (an intent-to-add entry)
// and 4, with a cache tree and a conflict.
func realIndexes(f *testing.F) [][]byte {
	var out [][]byte
	for _, setup := range [][]string{
		{"update-index", "--index-version", "2"},
		{"add", "-N", "ita.txt"},
		{"update-index", "--index-version", "4"},
	} {
		dir := f.TempDir()
		run := func(args ...string) {
			cmd := exec.Command("git", args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=F", "GIT_AUTHOR_EMAIL=f@e", "GIT_COMMITTER_NAME=F", "GIT_COMMITTER_EMAIL=f@e")
			if out, err := cmd.CombinedOutput(); err != nil {
				f.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
		run("init", "-q")
		for _, p := range []string{"a.txt", "dir/b.txt", "dir/sub/c.txt", "ita.txt"} {
			os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
			os.WriteFile(filepath.Join(dir, p), []byte(p), 0o644)
		}
		run("add", "a.txt", "dir")
		run("commit", "-qm", "one")
		run(setup...)
		b, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, b[:len(b)-20])
	}
	return out
}

func withChecksum(body []byte) []byte {
	sum := sha1.Sum(body)
	return append(append([]byte(nil), body...), sum[:]...)
}

func FuzzDecodeIndex(f *testing.F) {
	for _, body := range realIndexes(f) {
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		idx, err := Decode(withChecksum(body))
		if err != nil {
			return
		}
		for _, e := range idx.Entries {
			if strings.IndexByte(e.Name, 0) >= 0 {
				t.Fatalf("entry name with a NUL: %q", e.Name)
			}
		}
		idx.CacheRoot()
		idx.CacheTree()
	})
}

func FuzzDecodeCacheTree(f *testing.F) {
	for _, body := range realIndexes(f) {
		if i := bytes.Index(body, []byte("TREE")); i >= 0 {
			f.Add(body[i+8:])
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		decodeCacheTree(b)
		(&File{tree: b}).CacheRoot()
	})
}

func FuzzEWAHBitmap(f *testing.F) {
	// Two bitmaps as git wrote them in a split index's link extension.
	b, _ := hex.DecodeString("0000002000000002000000020000000000000000840000000000000000000022000000020000000200000000000000037bfffff000000000")
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		for len(b) > 0 {
			bm, rest, err := decodeEWAH(b)
			if err != nil {
				return
			}
			last, n := -1, 0
			eachBit(bm, func(pos int) error {
				if pos <= last {
					t.Fatalf("position %d after %d", pos, last)
				}
				if n++; n > 1<<16 {
					return ErrCorrupt // a long run: enough seen
				}
				last = pos
				return nil
			})
			b = rest
		}
	})
}

// The cache tree mirrors directories, so it nests no deeper than trees
// may; a crafted one nested a million deep overflowed the stack.
func TestACacheTreeNestedPastGitsTreeDepthIsIgnored(t *testing.T) {
	chain := func(depth int) []byte {
		var b bytes.Buffer
		for i := 0; i < depth; i++ {
			b.WriteString("d\x00-1 1\n")
		}
		b.WriteString("d\x00-1 0\n")
		return b.Bytes()
	}
	for _, depth := range []int{100, maxCacheTreeDepth} {
		if decodeCacheTree(chain(depth)) == nil {
			t.Errorf("a cache tree %d deep was dropped", depth)
		}
	}
	for _, depth := range []int{maxCacheTreeDepth + 1, 1_000_000} {
		if decodeCacheTree(chain(depth)) != nil {
			t.Errorf("a cache tree %d deep was decoded", depth)
		}
	}
}

// A version 4 name is the one before it cut, plus a suffix: entries that
// cut nothing and add a byte each claim names that grow by one, a few bytes
// an entry for a quadratic total (a 4 MB index decoded to 1.3 GB). The
// names an index decodes to are bounded by its size.
func TestAVersion4IndexWhoseNamesGrowQuadraticallyIsRefused(t *testing.T) {
	const n = 20_000
	b := []byte("DIRC\x00\x00\x00\x04")
	b = binary.BigEndian.AppendUint32(b, n)
	for i := 0; i < n; i++ {
		entry := make([]byte, 62)
		binary.BigEndian.PutUint32(entry[24:], 0o100644)
		binary.BigEndian.PutUint16(entry[60:], 0xfff)
		b = append(b, entry...)
		b = append(b, 0, 'a', 0) // cut nothing, add "a"
	}
	b = append(b, make([]byte, 20)...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Decode(b)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrCorrupt) {
		t.Errorf("an index of %d KiB whose names add up to %d MiB: %v", len(b)>>10, n*n/2>>20, err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 32<<20 {
		t.Errorf("decoding it allocated %d MiB", got>>20)
	}
}

// Long paths are real: an index whose names, each kilobytes long, add up
// to more than a megabyte is read whole (the bound on names is four times
// the index's size, not a fixed amount).
func TestAnIndexOfLongNamesIsRead(t *testing.T) {
	const n, nameLen = 1000, 2000
	b := []byte("DIRC\x00\x00\x00\x02")
	b = binary.BigEndian.AppendUint32(b, n)
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("%0*d", nameLen, i)
		e := make([]byte, 62)
		binary.BigEndian.PutUint32(e[24:], 0o100644)
		binary.BigEndian.PutUint16(e[60:], 0xfff)
		entry := append(e, name...)
		pad := 8 - len(entry)%8
		b = append(b, append(entry, make([]byte, pad)...)...)
	}
	b = append(b, make([]byte, 20)...)
	idx, err := Decode(b)
	if err != nil || len(idx.Entries) != n {
		t.Fatalf("an index of %d names of %d bytes: %v", n, nameLen, err)
	}
}
