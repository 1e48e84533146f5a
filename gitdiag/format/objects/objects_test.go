package objects

import (
	"bytes"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestApplyDelta(t *testing.T) {
	base := []byte("hello, world")
	big := bytes.Repeat([]byte("x"), 0x10000)
	tests := []struct {
		name  string
		base  []byte
		delta []byte
		want  string
		err   string
	}{
		{"copy then insert", base,
			[]byte{12, 8, 0x91, 7, 5, 3, '!', '!', '!'}, "world!!!", ""},
		{"copy of size 0 means 64 KiB", big,
			[]byte{0x80, 0x80, 0x04, 0x80, 0x80, 0x04, 0x80}, strings.Repeat("x", 0x10000), ""},
		{"base size mismatch", base, []byte{11, 1, 1, 'a'}, "", "does not match its base"},
		{"copy outside the base", base, []byte{12, 5, 0x91, 10, 5}, "", "outside its base"},
		{"truncated copy", base, []byte{12, 5, 0x91, 10}, "", "truncated delta"},
		{"truncated insert", base, []byte{12, 5, 5, 'a'}, "", "truncated delta"},
		{"result shorter than declared", base, []byte{12, 9, 2, 'a', 'b'}, "", "wrong size"},
		{"reserved instruction", base, []byte{12, 1, 0}, "", "bad delta instruction"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := applyDelta(tt.base, tt.delta, maxObjectSize)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %q, %v; want error %q", got, err, tt.err)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %d bytes, %v", len(got), err)
			}
		})
	}
}

func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("hello, world"), []byte{12, 8, 0x91, 7, 5, 3, '!', '!', '!'})
	f.Add([]byte(strings.Repeat("x", 100)), []byte{100, 100, 0x80})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		out, err := applyDelta(base, delta, maxObjectSize)
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
				if strings.IndexByte(e.Name, 0) >= 0 {
					t.Fatalf("tree entry name with a NUL: %q", e.Name)
				}
			}
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

func TestLooseHeaderAcceptsOnlyGitsHeader(t *testing.T) {
	tests := []struct {
		in       string
		typ      int
		size     int
		rest     string
		accepted bool
	}{
		{"blob 12\x00hello, world", TypeBlob, 12, "hello, world", true},
		{"commit 0\x00", TypeCommit, 0, "", true},
		{"tree 536870912\x00", TypeTree, 536870912, "", true},
		{"tag 3\x00abc", TypeTag, 3, "abc", true},
		{"blob 12", 0, 0, "", false},                            // no NUL in the first bytes
		{"blob\x00", 0, 0, "", false},                           // no size
		{"blob \x00", 0, 0, "", false},                          // empty size
		{"blob -1\x00", 0, 0, "", false},                        // sign
		{"blob 012\x00", 0, 0, "", false},                       // leading zero
		{"blob 1 2\x00", 0, 0, "", false},                       // two fields
		{"Blob 1\x00x", 0, 0, "", false},                        // unknown type
		{"ofs-delta 1\x00x", 0, 0, "", false},                   // pack-only type
		{"blob 99999999999\x00", 0, 0, "", false},               // beyond any int32
		{"blob 1000000000\x00", TypeBlob, 1000000000, "", true}, // ten digits: the most read
	}
	for _, tt := range tests {
		typ, size, rest, ok := looseHeader([]byte(tt.in))
		if ok != tt.accepted || typ != tt.typ || size != tt.size || string(rest) != tt.rest {
			t.Errorf("looseHeader(%q) = %d, %d, %q, %v; want %d, %d, %q, %v",
				tt.in, typ, size, rest, ok, tt.typ, tt.size, tt.rest, tt.accepted)
		}
	}
}
