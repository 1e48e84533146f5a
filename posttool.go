package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/longrun"
	"github.com/session-hooks/session-hooks/transcript"
)

// handlePostTool is PostToolUse (Write, Edit, MultiEdit, Bash): it warns
// the agent when the feature list changed in anything but "passes" since
// HEAD, and announces each context threshold once per session. Otherwise
// it prints nothing: it runs after every tool call.
func handlePostTool(h *hookRun) string {
	if !h.cfg.Active(h.project) {
		return ""
	}
	var warnings []string
	switch h.in.ToolName {
	case "Write", "Edit", "MultiEdit", "Bash", "":
		if edits := h.featureListEdits(); len(edits) > 0 {
			warnings = append(warnings, "The feature list was changed beyond `passes` since the last commit: "+
				strings.Join(edits, "; ")+". Only set a feature's `passes` to true once it works; restore the rest ("+
				"git checkout -p -- "+h.cfg.LongRunning.FeatureList+").")
		}
	}
	if w := h.newThreshold(); w != "" {
		warnings = append(warnings, w)
	}
	if len(warnings) == 0 {
		return ""
	}
	h.ev.Decision = "warn"
	if h.cfg.DryRun {
		h.writeLog("session-post-tool.md", "# Post-tool (dry run, not shown to the agent)\n\n- "+strings.Join(warnings, "\n- ")+"\n")
		return ""
	}
	b, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]string{
		"hookEventName": "PostToolUse", "additionalContext": logs.Cut(strings.Join(warnings, "\n\n"), outputBudget-200)}})
	return string(b)
}

// featureListEdits compares the feature list with its version at HEAD.
func (h *hookRun) featureListEdits() []string {
	path := h.path(h.cfg.LongRunning.FeatureList)
	now, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var atHEAD []byte
	h.git.With(h.ctx, func(r *gitdiag.Repo) error {
		rel, err := filepath.Rel(r.Root, path)
		if err != nil || r.Bare {
			return err
		}
		b, ok, err := r.FileAtHEAD(filepath.ToSlash(rel))
		if ok {
			atHEAD = b
		}
		return err
	})
	if atHEAD == nil {
		return nil // not committed yet: nothing to hold it to
	}
	return longrun.EditsBeyondPasses(atHEAD, now)
}

// newThreshold announces a context level the session has not been told of.
func (h *hookRun) newThreshold() string {
	if h.in.TranscriptPath == "" {
		return ""
	}
	u, err := transcript.ContextUsage(h.ctx, h.in.TranscriptPath, transcript.DefaultOptions)
	c := h.cfg.Context
	level := longrun.Level(u.Tokens, c.Warn, c.Critical, c.Emergency)
	if err != nil || !u.Known || level == "" {
		return ""
	}
	var notes []string
	s := h.session(&notes)
	if s == nil || !s.Announce(level) {
		return ""
	}
	// A level reached implies the ones below it: never warn after critical.
	for _, lower := range []string{"warn", "critical"} {
		if lower == level {
			break
		}
		s.Announce(lower)
	}
	if h.cfg.DryRun {
		return "Context: " + h.contextLine(u) + "."
	}
	if err := h.saveState(s); err != nil {
		return "" // announcing it again later beats announcing it on every call
	}
	return "Context: " + h.contextLine(u) + "."
}
