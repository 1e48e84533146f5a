package hooks

import (
	"fmt"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/logs"
)

// The recovery a compaction gets back is history: what was true just
// before it. renderHistory says so, and lays the snapshot's facts out by
// what matters most to an agent resuming the work, so that a cut to the
// budget loses the least (docs/recovery.md states the order):
//
//  1. the user's last request, the one before a terse one, and what the
//     user said after it;
//  2. what git says changed since (commits made, files now clean), so
//     finished work is not redone;
//  3. the open error, or a tool call that was in flight;
//  4. the task list;
//  5. the agent's latest text, whole, then the two before it;
//  6. the files written since the previous compaction;
//  7. the branch and what was uncommitted (not the context size then: it
//     says nothing of the context now).
//
// Two markers carry the nonce, at the start and at the end: a later run
// finds them in the transcript and records whether the recovery arrived
// whole, cut, or not at all (the receipt).

// receiptStart and receiptEnd mark a recovery with its nonce.
func receiptStart(nonce string) string { return "session-hooks recovery " + nonce }
func receiptEnd(nonce string) string   { return "end of session-hooks recovery " + nonce }

func renderHistory(r facts.Recovery, budget int) string {
	s := *r.Facts
	var b strings.Builder
	fmt.Fprintf(&b, "---\n\n## Pre-Compaction Context\n\n_(%s) Captured%s, just before the compaction. This is history: the request and the tasks are as they stood then; check them against the repository before acting on them._\n\n",
		receiptStart(r.Nonce), atTime(s.Time))
	if s.LastPrompt != "" {
		b.WriteString("**The user's last request, before the compaction:**\n\n" + logs.Quote(s.LastPrompt))
		if s.PreviousPrompt != "" {
			b.WriteString("It answered this earlier request:\n\n" + logs.Quote(s.PreviousPrompt))
		}
		for _, f := range s.FollowUps {
			b.WriteString("Then the user said:\n\n" + logs.Quote(f))
		}
	}
	if r.Since != nil && (len(r.Since.Commits) > 0 || len(r.Since.NowClean) > 0) {
		b.WriteString("**Since the snapshot** (from git):\n")
		for _, c := range r.Since.Commits {
			fmt.Fprintf(&b, "- committed: %s\n", logs.Code(c))
		}
		if len(r.Since.NowClean) > 0 {
			fmt.Fprintf(&b, "- no longer uncommitted: %s\n", codes(r.Since.NowClean))
		}
		b.WriteString("\n")
	}
	if e := s.OpenError; e != nil {
		fmt.Fprintf(&b, "**Open error:** the last tool call failed: %s %s\n\n%s", logs.Code(e.Tool), logs.Code(e.Input), logs.Quote(e.Error))
	}
	if c := s.InFlight; c != nil {
		fmt.Fprintf(&b, "**In flight:** %s %s was called and had no result yet.\n\n", logs.Code(c.Tool), logs.Code(c.Input))
	}
	if p := s.Plan; p != nil {
		state := "proposed, not approved"
		if p.Approved {
			state = "approved by the user"
		}
		b.WriteString("**The plan (" + state + "):**\n\n" + logs.Quote(p.Text))
	}
	if s.PermissionMode == "plan" {
		b.WriteString("**Plan mode** was on: the user wanted a plan before any change.\n\n")
	}
	if len(s.Tasks) > 0 {
		b.WriteString("**Task list, before the compaction:**\n\n")
		if s.TasksStale {
			b.WriteString("_Last changed before the user's last request: it may not reflect that request._\n\n")
		}
		for _, t := range s.Tasks {
			b.WriteString(logs.TaskLine(t) + "\n")
		}
		b.WriteString("\n")
	}
	if n := len(s.AssistantTexts); n > 0 {
		b.WriteString("**What the agent said last:**\n\n" + logs.Quote(s.AssistantTexts[n-1]))
		if n > 1 {
			b.WriteString("Before that:\n\n")
			for _, t := range s.AssistantTexts[:n-1] {
				b.WriteString(logs.Quote(t))
			}
		}
	}
	if len(s.FilesTouched) > 0 {
		b.WriteString("**Files written since the previous compaction:**\n\n")
		for _, f := range s.FilesTouched {
			fmt.Fprintf(&b, "- %s\n", logs.Code(f))
		}
		b.WriteString("\n")
	}
	// No context figure: the one before the compaction says nothing of
	// the context now.
	fmt.Fprintf(&b, "**Then:** branch %s.\n\n", logs.Code(s.Branch))
	if len(s.Uncommitted) > 0 {
		// One line: a file written and left uncommitted is in the list of
		// files written too, and the same line twice reads as two facts.
		fmt.Fprintf(&b, "Uncommitted then: %s.\n\n", codes(s.Uncommitted))
	}
	for _, n := range s.Notes {
		fmt.Fprintf(&b, "_%s_\n\n", n)
	}
	end := "_(" + receiptEnd(r.Nonce) + ")_\n"
	return logs.FitMarkdown(b.String(), budget-logs.Len(end)) + end
}

// quoteBlock quotes text as a markdown block quote, one paragraph.

func codes(list []string) string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = logs.Code(s)
	}
	return strings.Join(out, ", ")
}

// briefTime is how a time reads in the context: to the minute, in UTC.
const briefTime = "2006-01-02 15:04"

// atTime is " at <when>" for a time read back from a log, or nothing when
// it does not parse. An absolute time stays true in a context the model
// reads hours later; "N s ago" does not, and goes negative on a clock skew.
func atTime(logged string) string {
	at, err := time.Parse(logs.TimeFormat, logged)
	if err != nil {
		return ""
	}
	return " at " + at.UTC().Format(briefTime) + " UTC"
}
