package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/session-hooks/session-hooks/logs"
)

// memoryFiles are the instructions Claude Code reads at every session: an
// agent that rewrites them changes every session after it.
var memoryFiles = []string{"CLAUDE.md", "AGENTS.md", ".claude/CLAUDE.md"}

// observe records, in the session's state, the event's model and, when the
// session starts, the memory files' hashes. It returns notes: a change of
// model, and (at the end) the memory files that changed.
func (h *hookRun) observe(ending bool) []string {
	var notes []string
	s := h.session(&notes)
	if s == nil {
		return nil
	}
	if prev, changed := s.SeeModel(h.in.Model); changed {
		notes = append(notes, fmt.Sprintf("the model changed during the session: %s → %s", prev, h.in.Model))
	}
	now := h.memoryHashes()
	if s.Memory == nil {
		s.Memory = now
	}
	if ending {
		if changed := changedMemory(s.Memory, now); len(changed) > 0 {
			notes = append(notes, "memory files changed during the session: "+strings.Join(changed, ", "))
		}
	}
	if err := h.saveState(s); err != nil {
		notes = append(notes, "session state not saved: "+firstLine(err.Error()))
	}
	return notes
}

func (h *hookRun) memoryHashes() map[string]string {
	out := map[string]string{}
	for _, f := range memoryFiles {
		b, err := os.ReadFile(h.path(f))
		if err != nil {
			out[f] = ""
			continue
		}
		sum := sha256.Sum256(b)
		out[f] = hex.EncodeToString(sum[:])
	}
	return out
}

func changedMemory(before, now map[string]string) []string {
	var out []string
	for _, f := range memoryFiles {
		switch b, n := before[f], now[f]; {
		case b == n:
		case b == "":
			out = append(out, f+" (created)")
		case n == "":
			out = append(out, f+" (deleted)")
		default:
			out = append(out, f)
		}
	}
	return out
}

// keepCheckpoint files the snapshot as one of the last N checkpoints,
// named by time and session so they sort oldest first, and prunes the rest.
func (h *hookRun) keepCheckpoint(text string) []string {
	n := h.cfg.Checkpoints
	if n <= 0 {
		return nil
	}
	name := filepath.Join("checkpoints", h.start.UTC().Format("20060102T150405.000Z")+"-"+logs.SafeName(orUnknown(h.in.SessionID))+".md")
	notes := h.writeLog(name, text)
	dir := filepath.Join(h.logs.Path, "checkpoints")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return notes
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".md") && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, old := range names[:max(0, len(names)-n)] {
		os.Remove(filepath.Join(dir, old))
	}
	return notes
}
