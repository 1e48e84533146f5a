//go:build unix

package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadRefusesWhatCouldHangOrExhaustTheHook(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	os.Symlink("/dev/zero", zero)
	big := filepath.Join(dir, "big")
	os.WriteFile(big, []byte(strings.Repeat("[", 2048)), 0o644)
	ok := filepath.Join(dir, "ok")
	os.WriteFile(ok, []byte("fine"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(ok, link)
	tests := []struct {
		name, path string
		want       string // "" for the content "fine"
	}{
		{"a FIFO", fifo, "not a regular file"},
		{"a link to /dev/zero", zero, "not a regular file"},
		{"a directory", dir, "not a regular file"},
		{"over the cap", big, "is over 1 KiB"},
		{"a regular file", ok, ""},
		{"a link to a regular file", link, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan struct{})
			var b []byte
			var err error
			go func() { b, err = Read(tt.path, 1024); close(done) }()
			select {
			case <-done:
			case <-time.After(2 * time.Second):
				t.Fatal("Read blocked")
			}
			switch {
			case tt.want == "" && (err != nil || string(b) != "fine"):
				t.Errorf("got %q, %v", b, err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("err = %v, want %q", err, tt.want)
			}
			if tt.want == "not a regular file" && !errors.Is(err, ErrNotRegular) {
				t.Errorf("%v is not ErrNotRegular", err)
			}
		})
	}
}

func TestReadTakesExactlyTheCapAndSaysItInMiB(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	os.WriteFile(path, []byte(strings.Repeat("x", 1<<20)), 0o644)
	if b, err := Read(path, 1<<20); err != nil || len(b) != 1<<20 {
		t.Errorf("a file of exactly the cap: %d bytes, %v", len(b), err)
	}
	if _, err := Read(path, 1<<20-1); err == nil || !strings.Contains(err.Error(), "is over 1023 KiB") {
		t.Errorf("one byte over: %v", err)
	}
	os.WriteFile(path, []byte(strings.Repeat("x", 1<<20+1)), 0o644)
	if _, err := Read(path, 1<<20); err == nil || !strings.Contains(err.Error(), "is over 1 MiB") {
		t.Errorf("one byte over 1 MiB: %v", err)
	}
}
