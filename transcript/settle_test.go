package transcript

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSettleWaitsForALateBatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	os.WriteFile(path, []byte(`{"type":"user"}`+"\n"), 0o600)
	go func() {
		time.Sleep(15 * time.Millisecond)
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(`{"type":"assistant"}` + "\n")
		f.Close()
	}()
	start := time.Now()
	if !Settle(context.Background(), path, 40*time.Millisecond, time.Second) {
		t.Fatal("a transcript quiet after one late write did not settle")
	}
	if b, _ := os.ReadFile(path); len(b) < 30 {
		t.Errorf("Settle returned before the late write (%v): %q", time.Since(start), b)
	}
}

func TestSettleGivesUpOnATranscriptThatKeepsGrowing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	os.WriteFile(path, nil, 0o600)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		defer f.Close()
		for ctx.Err() == nil {
			f.WriteString("x")
			time.Sleep(2 * time.Millisecond)
		}
	}()
	if Settle(context.Background(), path, 40*time.Millisecond, 100*time.Millisecond) {
		t.Error("settled while the transcript was still growing")
	}
}

func TestSettleAcceptsAMissingTranscript(t *testing.T) {
	if !Settle(context.Background(), "", time.Second, time.Second) {
		t.Error("an empty path did not settle at once")
	}
	if !Settle(context.Background(), filepath.Join(t.TempDir(), "none"), 10*time.Millisecond, time.Second) {
		t.Error("a missing file did not settle")
	}
}
