//go:build unix

package hooks

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/transcript"
)

// A transcript path naming a FIFO (a payload is untrusted) is refused at
// once by every agent's reader, never waited on.
func TestEveryAgentsReaderRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "transcript.jsonl")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, a := range []Agent{Claude, Codex, Gemini, Copilot} {
		name := a.Name
		done := make(chan error, 1)
		go func() { _, err := a.Read(context.Background(), path, transcript.DefaultOptions); done <- err }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s: a FIFO was read as a transcript", name)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: Read blocked on a FIFO", name)
		}
	}
}
