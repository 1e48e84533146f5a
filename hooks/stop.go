package hooks

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/hooks/config"
	"github.com/session-hooks/session-hooks/hooks/longrun"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/internal/safefile"
	"github.com/session-hooks/session-hooks/logs"
)

// StopLog is where the latest stop decision is explained.
const StopLog = "session-stop.md"

// handleStop is the Stop event: while the long-running checks are active
// and the agent would stop with work uncommitted, no progress entry, or a
// required file missing, it blocks the stop once with what to do. It never
// blocks twice in a turn, and lets the stop through on any error of its own
// (fail open): a hook must not trap an agent.
func handleStop(r *Run) protocol.Reply {
	r.checkReceipt()
	if !r.Cfg.Active(r.Project) {
		return protocol.Reply{}
	}
	in := r.In
	in.StopHookActive = in.StopHookActive || r.heldThisTurn()
	var facts longrun.StopFacts
	var err error
	if !in.StopHookActive && r.Cfg.LongRunning.EnforceCleanStop && in.BackgroundTasks+in.SessionCrons == 0 {
		facts, err = r.gatherStop()
	}
	decision, reasons := decideStop(in, r.Cfg, facts, err)
	r.ev.Decision = decision
	r.writeLog(StopLog, renderStopLog(r, decision, reasons))
	switch decision {
	case "block":
		r.noteHeld()
		return protocol.Hold(protocol.HoldHeading + "\n- " + strings.Join(reasons, "\n- "))
	case "nudge":
		return protocol.AddContext(protocol.Stop, "Before you stop, consider (long-running agent checks):\n- "+strings.Join(reasons, "\n- "))
	}
	return protocol.Reply{}
}

// heldThisTurn says whether a stop of this request's turn was already
// held, for a client whose stop payload names the request (Gemini CLI's
// AfterAgent): after a hold, the agent's tool calls end in a new stop
// whose payload no longer says a hook held one. A client that sends no
// request with its stop says so itself (stop_hook_active).
func (r *Run) heldThisTurn() bool {
	s := r.session()
	return s != nil && r.In.Prompt != "" && s.Held != "" && s.Held == turnKey(r.In.Prompt)
}

// noteHeld records the turn whose stop was held.
func (r *Run) noteHeld() {
	if s := r.session(); s != nil && r.In.Prompt != "" {
		s.Held = turnKey(r.In.Prompt)
		r.saveState(s)
	}
}

// turnKey names a turn by its request without keeping the request.
func turnKey(request string) string {
	sum := sha256.Sum256([]byte(request))
	return hex.EncodeToString(sum[:8])
}

// decideStop returns "block", "nudge", "allow" or "dry run", with the
// reasons.
// Stop fires at the end of every turn, not only when the work is done: a
// turn that background work will resume is let through.
func decideStop(in protocol.Input, cfg config.Config, f longrun.StopFacts, gatherErr error) (string, []string) {
	switch {
	case in.StopHookActive:
		return "allow", []string{"a stop hook already blocked once this turn"}
	case in.BackgroundTasks > 0 || in.SessionCrons > 0:
		return "allow", []string{fmt.Sprintf("%d background task(s) and %d session cron(s) will wake the session again", in.BackgroundTasks, in.SessionCrons)}
	case !cfg.LongRunning.EnforceCleanStop:
		return "allow", []string{"longRunning.enforceCleanStop is false"}
	case gatherErr != nil:
		return "allow", []string{"the checks could not run (" + firstLine(gatherErr.Error()) + "), so the stop is let through"}
	}
	reasons := longrun.StopReasons(f)
	switch {
	case len(reasons) == 0:
		return "allow", []string{"the work is committed and recorded"}
	case cfg.DryRun:
		return "dry run", reasons
	case cfg.LongRunning.StopMode == "nudge":
		return "nudge", reasons
	}
	return "block", reasons
}

// gatherStop reads what the stop rule looks at.
func (r *Run) gatherStop() (longrun.StopFacts, error) {
	lr := r.Cfg.LongRunning
	base := longrun.StopFacts{ProgressFile: string(lr.ProgressFile), ProgressTouched: true}
	s := r.session() // read before the repository is taken: it may read it too
	f, err := gitdiag.Within(r.Ctx, r.Git, func(repo *gitdiag.Repo) (longrun.StopFacts, error) {
		f := base
		st, err := repo.Status(r.Ctx)
		if err != nil {
			return f, err
		}
		if st.Incomplete != "" {
			return f, fmt.Errorf("%s", st.Incomplete)
		}
		var before []string
		if s != nil {
			before = s.StartUntracked
			if h, err := repo.Head(); err == nil && !h.Unborn && h.Hash.String() != s.StartHead {
				f.Changed = true // committed since the session started
			}
		}
		for i, line := range st.Short(repo.Prefix) {
			file := st.Files[i]
			if longrun.Ignored(file.Path, lr.IgnorePaths) || file.X == '?' && slices.Contains(before, file.Path) {
				continue
			}
			f.Uncommitted = append(f.Uncommitted, line)
		}
		f.Changed = f.Changed || len(f.Uncommitted) > 0
		return f, nil
	})
	if err != nil {
		return base, err
	}
	f.MissingRequired, _ = within(r, "looking for the required files", func() []string {
		var missing []string
		for _, p := range lr.RequiredFiles {
			if _, err := safefile.StatIn(r.Project, p); err != nil {
				missing = append(missing, string(p))
			}
		}
		return missing
	})
	if s != nil {
		started := s.StartedAt
		f.ProgressTouched, _ = within(r, "looking at the progress file", func() bool {
			fi, err := safefile.StatIn(r.Project, lr.ProgressFile)
			return err == nil && !fi.ModTime().Before(started)
		})
	}
	return f, nil
}

func renderStopLog(r *Run, decision string, reasons []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Session Stop\n\n**Time:** %s\n**Session:** %s\n**Decision:** %s\n\n",
		logs.Code(r.Start.UTC().Format(logs.TimeFormat)), logs.Code(r.In.SessionID), logs.Code(decision))
	for _, reason := range reasons {
		fmt.Fprintf(&b, "- %s\n", reason)
	}
	for _, n := range r.notes {
		fmt.Fprintf(&b, "\n**Note:** %s\n", n)
	}
	return b.String()
}
