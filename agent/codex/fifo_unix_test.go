//go:build unix

package codex

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/agent/claude/transcript"
)

// A rollout path naming a FIFO (a payload is untrusted) is refused at
// once, never waited on.
func TestAFIFOIsRefusedNotWaitedOn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rollout.jsonl")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := Read(context.Background(), path, transcript.DefaultOptions); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a FIFO was read as a rollout")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read blocked on a FIFO")
	}
}
