package lfs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The pointers of testdata were written by the real git-lfs
// (record.sh): pointers kept as they are, anything else replaced by a
// pointer to its SHA-256.
func TestLFSPointersMatchRecordedGitLFS(t *testing.T) {
	inputs, err := filepath.Glob("testdata/*.in")
	if err != nil || len(inputs) < 20 {
		t.Fatalf("the recorded inputs are missing: %v, %d found", err, len(inputs))
	}
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			content, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(in, ".in") + ".want")
			if err != nil {
				t.Fatal(err)
			}
			got, err := Clean(bytes.NewReader(content))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("got %q, %v\nwant %q", got, err, want)
			}
		})
	}
}

// What git-lfs writes is itself a pointer: cleaning it again keeps it.
func FuzzLFSClean(f *testing.F) {
	for _, in := range []string{"hello\n", "", "version https://git-lfs.github.com/spec/v1\noid sha256:" + strings.Repeat("ab", 32) + "\nsize 6\n"} {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		out, err := Clean(bytes.NewReader(content))
		if err != nil {
			t.Fatal(err)
		}
		again, err := Clean(bytes.NewReader(out))
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("a pointer was not kept: %q became %q", out, again)
		}
	})
}
