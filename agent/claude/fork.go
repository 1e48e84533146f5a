package claude

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/transcript"
)

// ForkParent finds the transcript a fork was made from: among the newest
// few beside own and in the transcript directories of the repository's
// worktrees, the one whose last reply reported the context size Claude
// Code gives the fork (its parent's). "" when none does: the fork then
// injects all, as a new context would.
//
// Claude Code keeps transcripts per directory it runs in, and /fork starts
// the fork in a worktree of its own: the other worktrees' directories are
// looked in too.
func ForkParent(ctx context.Context, own string, worktrees []string, tokens int) string {
	var dirs []string
	if config := ConfigDirOf(own); config != "" {
		for _, w := range worktrees {
			dirs = append(dirs, TranscriptsDir(config, w))
		}
	}
	return forkParentIn(ctx, own, dirs, tokens)
}

// maxForkCandidates is how many of the newest transcripts are read.
const maxForkCandidates = 5

func forkParentIn(ctx context.Context, own string, dirs []string, tokens int) string {
	type candidate struct {
		path string
		at   time.Time
	}
	var all []candidate
	for _, dir := range append([]string{filepath.Dir(own)}, dirs...) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".jsonl") || filepath.Join(dir, e.Name()) == own {
				continue
			}
			if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() {
				all = append(all, candidate{filepath.Join(dir, e.Name()), fi.ModTime()})
			}
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].at.After(all[j].at) })
	for _, c := range all[:min(len(all), maxForkCandidates)] {
		if u, err := ContextUsage(ctx, c.path, transcript.DefaultOptions); err == nil && u.Known && (u.Tokens+u.Output == tokens || u.Tokens == tokens) {
			return c.path
		}
	}
	return ""
}
