package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/longrun"
)

// StopLog is where the latest stop decision is explained.
const StopLog = "session-stop.md"

// handleStop is the Stop event: while the long-running checks are active
// and the agent would stop with work uncommitted, no progress entry, or a
// required file missing, it blocks the stop once with what to do. It never
// blocks twice in a turn, and lets the stop through on any error of its own
// (fail open): a hook must not trap an agent.
func handleStop(h *hookRun) string {
	if !h.cfg.Active(h.project) {
		return ""
	}
	decision, reasons := h.decideStop()
	h.ev.Decision = decision
	h.writeLog(StopLog, h.stopLog(decision, reasons))
	if decision != "block" {
		return ""
	}
	b, _ := json.Marshal(map[string]string{"decision": "block",
		"reason": "Before you stop (long-running agent checks):\n- " + strings.Join(reasons, "\n- ")})
	return string(b)
}

// decideStop returns "block", "allow" or "dry run", with the reasons.
func (h *hookRun) decideStop() (string, []string) {
	lr := h.cfg.LongRunning
	switch {
	case h.in.StopHookActive:
		return "allow", []string{"a stop hook already blocked once this turn"}
	case !lr.EnforceCleanStop:
		return "allow", []string{"longRunning.enforceCleanStop is false"}
	}
	facts, err := h.stopFacts()
	if err != nil {
		return "allow", []string{"the checks could not run (" + firstLine(err.Error()) + "), so the stop is let through"}
	}
	reasons := longrun.StopReasons(facts)
	switch {
	case len(reasons) == 0:
		return "allow", []string{"the work is committed and recorded"}
	case h.cfg.DryRun:
		return "dry run", reasons
	}
	return "block", reasons
}

// stopFacts gathers what the stop rule looks at.
func (h *hookRun) stopFacts() (longrun.StopFacts, error) {
	lr := h.cfg.LongRunning
	f := longrun.StopFacts{ProgressFile: lr.ProgressFile, ProgressTouched: true}
	err := h.git.With(h.ctx, func(r *gitdiag.Repo) error {
		st, err := r.Status(h.ctx)
		if err != nil {
			return err
		}
		if st.Incomplete != "" {
			return fmt.Errorf("%s", st.Incomplete)
		}
		for i, line := range st.Short(r.Prefix) {
			if !longrun.Ignored(st.Files[i].Path, lr.IgnorePaths) {
				f.Uncommitted = append(f.Uncommitted, line)
			}
		}
		return nil
	})
	if err != nil {
		return f, err
	}
	for _, p := range lr.RequiredFiles {
		if _, err := os.Stat(h.path(p)); err != nil {
			f.MissingRequired = append(f.MissingRequired, p)
		}
	}
	var notes []string
	if s := h.session(&notes); s != nil {
		fi, err := os.Stat(h.path(lr.ProgressFile))
		f.ProgressTouched = err == nil && !fi.ModTime().Before(s.StartedAt)
	}
	return f, nil
}

func (h *hookRun) stopLog(decision string, reasons []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Session Stop\n\n**Time:** %s\n**Session:** %s\n**Decision:** %s\n\n",
		logs.Code(h.start.UTC().Format(logs.TimeFormat)), logs.Code(h.in.SessionID), logs.Code(decision))
	for _, r := range reasons {
		fmt.Fprintf(&b, "- %s\n", r)
	}
	for _, n := range h.notes {
		fmt.Fprintf(&b, "\n**Note:** %s\n", n)
	}
	return b.String()
}
