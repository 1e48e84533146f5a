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
