package gitdiag

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing"
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
		idx, err := decodeIndex(withChecksum(body))
		if err != nil {
			return
		}
		for _, e := range idx.entries {
			if strings.IndexByte(e.name, 0) >= 0 {
				t.Fatalf("entry name with a NUL: %q", e.name)
			}
		}
		idx.cacheRoot()
		idx.cacheTree()
		// A damaged index may be unsorted or hold odd names; the walk's
		// tree of it must still build.
		buildTrackedTree(trackEntries(idx.entries))
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
		(&indexFile{tree: b}).cacheRoot()
	})
}

func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("hello, world"), []byte{12, 8, 0x91, 7, 5, 3, '!', '!', '!'})
	f.Add([]byte(strings.Repeat("x", 100)), []byte{100, 100, 0x80})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		out, err := applyDelta(base, delta)
		if err != nil {
			return
		}
		_, rest, _ := deltaSize(delta)
		want, _, _ := deltaSize(rest)
		if uint64(len(out)) != want {
			t.Fatalf("result of %d bytes, declared %d", len(out), want)
		}
	})
}

func FuzzParseObjects(f *testing.F) {
	f.Add([]byte("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nparent 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n" +
		"author A <a@b> 1700000000 +0000\ncommitter A <a@b> 1700000000 +0000\n\nsubject\n\nbody\n"))
	f.Add([]byte("100644 a.txt\x00" + strings.Repeat("\x01", 20) + "40000 dir\x00" + strings.Repeat("\x02", 20)))
	f.Add([]byte("object 4b825dc642cb6eb9a060e54bf8d69288fbee4904\ntype commit\ntag v1\n\nmessage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var h plumbing.Hash
		parseCommit(h, data)
		if entries, err := parseTree(h, data); err == nil {
			for _, e := range entries {
				if strings.IndexByte(e.name, 0) >= 0 {
					t.Fatalf("tree entry name with a NUL: %q", e.name)
				}
			}
		}
		s := subject(string(data))
		if !utf8.ValidString(s) || strings.ContainsAny(s, "\x1b\n\x00") {
			t.Fatalf("subject %q", s)
		}
	})
}

func FuzzPackEntryHeader(f *testing.F) {
	f.Add([]byte{0x95, 0x0a}, []byte{0x91, 0x2e})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, header, offset []byte) {
		if _, size, err := entryHeader(bytes.NewReader(header)); err == nil && (size < 0 || size > maxObjectSize) {
			t.Fatalf("size %d accepted", size)
		}
		if off, err := ofsDeltaOffset(bytes.NewReader(offset)); err == nil && off < 0 {
			t.Fatalf("negative offset %d", off)
		}
	})
}

func FuzzCleanLineEndings(f *testing.F) {
	f.Add([]byte("a\r\nb\r\n"), byte(crlfAuto), false)
	f.Add([]byte("a\rb\x00\r\n"), byte(crlfText), true)
	f.Add([]byte("$Id: x $\r\n"), byte(crlfText), false)
	f.Fuzz(func(t *testing.T, content []byte, action byte, indexCRLF bool) {
		c := cleanRules{crlf: crlfAction(action % 3), ident: action&4 != 0}
		out := c.clean(content, func() bool { return indexCRLF })
		if c.crlf != crlfBinary && !indexCRLF && gatherStats(out).crlf > 0 && !gatherStats(content).binary() {
			t.Fatalf("CRLF left in converted text: %q → %q", content, out)
		}
		if len(out) > len(content) {
			t.Fatalf("cleaning grew %q to %q", content, out)
		}
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
					return errIndexCorrupt // a long run: enough seen
				}
				last = pos
				return nil
			})
			b = rest
		}
	})
}
