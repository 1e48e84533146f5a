package claude

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestAForksParentIsTheTranscriptWhoseLastReplyHadItsContext(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, input, output int, age time.Duration) string {
		p := filepath.Join(dir, name)
		line := fmt.Sprintf(`{"type":"assistant","message":{"model":"m","usage":{"input_tokens":%d,"output_tokens":%d}}}`+"\n", input, output)
		os.WriteFile(p, []byte(line), 0o600)
		at := time.Now().Add(-age)
		os.Chtimes(p, at, at)
		return p
	}
	parent := write("parent.jsonl", 1000, 20, time.Hour)
	write("newer-other.jsonl", 5000, 10, time.Minute)
	own := filepath.Join(dir, "fork.jsonl") // not written yet, as at a fork's start
	if got := forkParentIn(context.Background(), own, nil, 1020); got != parent {
		t.Errorf("got %q, want the parent %q", got, parent)
	}
	if got := forkParentIn(context.Background(), own, nil, 777); got != "" {
		t.Errorf("no transcript had that context, yet %q was taken", got)
	}
	// /fork runs the fork in a worktree of its own, whose transcripts are
	// in another directory: the parent is found in the other worktrees'.
	elsewhere := filepath.Join(t.TempDir(), "fork-in-a-worktree.jsonl")
	if got := forkParentIn(context.Background(), elsewhere, []string{dir}, 1020); got != parent {
		t.Errorf("from another worktree's directory: got %q, want %q", got, parent)
	}
}

// The worktrees a fork may have started in are Claude Code's transcript
// directories of their paths, under the configuration the transcript is in.
func TestAForksParentIsLookedForInEachWorktreesTranscripts(t *testing.T) {
	config := t.TempDir()
	dir := TranscriptsDir(config, "/repo/main")
	os.MkdirAll(dir, 0o700)
	parent := filepath.Join(dir, "parent.jsonl")
	os.WriteFile(parent, []byte(`{"type":"assistant","message":{"model":"m","usage":{"input_tokens":1000,"output_tokens":20}}}`+"\n"), 0o600)
	own := filepath.Join(TranscriptsDir(config, "/repo/fork"), "fork.jsonl")
	if got := ForkParent(context.Background(), own, []string{"/repo/main"}, 1020); got != parent {
		t.Errorf("got %q, want %q", got, parent)
	}
	if got := ForkParent(context.Background(), "/elsewhere/fork.jsonl", []string{"/repo/main"}, 1020); got != "" {
		t.Errorf("a transcript under no configuration found %q", got)
	}
}
