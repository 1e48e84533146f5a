package gitdiag

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/session-hooks/session-hooks/gitdiag/format/index"

	"github.com/go-git/go-git/v5/plumbing"
)

// FuzzTrackedTree: a damaged index may be unsorted or hold odd names
// (empty, "a//b", a file and a directory of one name, conflict stages);
// the walk's tree of it must still build.
func FuzzTrackedTree(f *testing.F) {
	f.Add("a\na/b\na.c\n\nx//y\nc:1\nc:3\n/lead\ntrail/")
	f.Fuzz(func(t *testing.T, names string) {
		var entries []*index.Entry
		for _, n := range strings.Split(names, "\n") {
			e := &index.Entry{Name: n}
			if p, stage, ok := strings.Cut(n, ":"); ok && stage != "" {
				e.Name, e.Stage = p, int(stage[0]%4)
			}
			entries = append(entries, e)
		}
		buildTrackedTree(trackEntries(entries))
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
