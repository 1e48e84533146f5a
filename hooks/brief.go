package hooks

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/internal/sanitize"
	"github.com/session-hooks/session-hooks/logs"
)

// The brief is what a session start injects by default: only what Claude
// Code does not say itself. Claude Code 2.1.330 injects the branch, the
// main branch, the short status and five recent commits (its
// session_context) at every start and after every compaction, so the brief
// leaves those out, and the metadata table with them. Most important
// first, so that a cut loses the least: operations in progress, a detached
// HEAD, where the branch stands against its upstream, how long a resumed
// session slept, stashes and other worktrees, then the previous session's
// handoff.

// briefDiffFiles is how many files of the diff stat the brief lists; past
// it, only the totals.
const briefDiffFiles = 5

// contextHeadingStart and contextHeadingEnd open a brief that has
// something to say, for a client that gives the model its own git
// context: "## session-hooks: what Claude Code's git context leaves out".
const contextHeadingStart, contextHeadingEnd = "## session-hooks: what ", "'s git context leaves out"

// renderBriefFor lays the facts out as the brief for agent a; now dates
// the handoff. A brief with nothing to say is empty: no heading, no
// "nothing to report". For an agent that says nothing of the repository
// itself, it starts with what Claude Code would have said (the branch, the
// recent commits, the short status).
func renderBriefFor(f facts.Init, now time.Time, a protocol.Agent) string {
	body := briefBody(f, now)
	if !a.GitContext {
		body = gitContext(f.Git) + body
	}
	if body == "" {
		return ""
	}
	return headingFor(a) + body
}

// headingFor is the brief's heading for agent a.
func headingFor(a protocol.Agent) string {
	if a.GitContext {
		return contextHeadingStart + a.Label + contextHeadingEnd + "\n\n"
	}
	return agentHeadingStart + a.Label + agentHeadingEnd + "\n\n"
}

const agentHeadingStart, agentHeadingEnd = "## session-hooks: the repository, and what ", " does not say of it"

// isHeading says whether a paragraph is a brief's heading, of any agent.
func isHeading(p string) bool {
	for _, h := range [][2]string{{contextHeadingStart, contextHeadingEnd}, {agentHeadingStart, agentHeadingEnd}} {
		if label, ok := strings.CutPrefix(p, h[0]); ok && strings.HasSuffix(label, h[1]) && !strings.Contains(label, "\n") {
			return true
		}
	}
	return false
}

// statusLines is how many lines of the short status gitContext shows.
const statusLines = 20

// firstOf says ", the first 20 of n" when the list is cut to statusLines.
func firstOf(n int) string {
	if n <= statusLines {
		return ""
	}
	return fmt.Sprintf(", the first %d of %d", statusLines, n)
}

// gitContext is what Claude Code's session_context says and other agents
// do not: the branch, the recent commits, the short status.
func gitContext(g facts.Git) string {
	if g.Branch == "" {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**Branch:** %s.", logs.Code(g.Branch))
	if len(g.Commits) > 0 {
		b.WriteString(" Recent commits:\n" + logs.Fence(g.Commits))
	} else {
		b.WriteString("\n")
	}
	switch n := len(g.Status); {
	case g.StatusIncomplete != "" && n == 0:
		b.WriteString("\nUncommitted changes not known: " + g.StatusIncomplete + ".\n\n")
	case g.StatusIncomplete != "":
		b.WriteString("\nUncommitted, as far as the status got (git status --short" + firstOf(n) + "):\n" +
			logs.Fence(firstN(g.Status, statusLines)) + "_(" + g.StatusIncomplete + ")_\n\n")
	case n == 0:
		b.WriteString("\nNo uncommitted change.\n\n")
	case n <= statusLines:
		b.WriteString("\nUncommitted (git status --short):\n" + logs.Fence(g.Status) + "\n")
	default:
		b.WriteString("\nUncommitted (git status --short, the first " + fmt.Sprint(statusLines) + " of " + fmt.Sprint(n) + "):\n" +
			logs.Fence(g.Status[:statusLines]) + "\n")
	}
	return b.String()
}

func briefBody(f facts.Init, now time.Time) string {
	var b strings.Builder
	s := f.Start
	if s == nil {
		s = &facts.Start{}
	}
	for _, o := range s.Operations {
		fmt.Fprintf(&b, "**In progress:** %s.", o.Text)
		if len(s.Conflicted) > 0 {
			fmt.Fprintf(&b, " Conflicted: %s.", codes(firstN(s.Conflicted, 10)))
			if n := len(s.Conflicted) - 10; n > 0 {
				fmt.Fprintf(&b, " … and %d more.", n)
			}
		}
		b.WriteString("\n\n")
	}
	if err := probeError(f.Git); err != "" {
		heading := "git could not be read"
		if strings.Contains(err, gitdiag.DeadlineCut) {
			// Cut, not unreadable: what was read in time is below.
			heading = "Not read in time"
		}
		fmt.Fprintf(&b, "**%s:** %s\n\n", heading, err)
	}
	if s.Detached != "" && !detachedByOperation(s.Operations) {
		fmt.Fprintf(&b, "**HEAD is detached** at %s: new commits belong to no branch.\n\n", logs.Code(s.Detached))
	}
	if line := branchStanding(f.Git, s); line != "" {
		b.WriteString(line + "\n\n")
	}
	if r := s.Resume; r != nil {
		if line := resumeLine(r, now); line != "" {
			b.WriteString(line + "\n\n")
		}
	}
	if s.Stashes > 0 {
		fmt.Fprintf(&b, "Stashes: %d; the newest: %s.\n\n", s.Stashes, codes(s.NewestStash))
	}
	if w := s.Worktree; w != nil {
		fmt.Fprintf(&b, "This session is in the linked worktree %s (%s).\n\n", logs.Code(w.Path), branchOf(*w))
	}
	if n := len(s.Worktrees); n > 0 {
		var ws []string
		for _, w := range firstN(s.Worktrees, 3) {
			branch := branchOf(w)
			if w.Main {
				branch += ", the main worktree"
			}
			if w.Prunable != "" {
				branch += ", prunable: " + w.Prunable
			}
			ws = append(ws, logs.Code(w.Path)+" ("+branch+")")
		}
		if n > len(ws) {
			ws = append(ws, fmt.Sprintf("and %d more", n-len(ws)))
		}
		fmt.Fprintf(&b, "Other worktrees: %d: %s.\n\n", n, strings.Join(ws, ", "))
	}
	if h := s.Handoff; h != nil {
		b.WriteString(renderHandoff(*h, s.HandoffSince, s.UpstreamMove))
	}
	return b.String()
}

func branchOf(w facts.Worktree) string {
	if w.Branch == "" {
		return "detached"
	}
	return logs.Code(w.Branch)
}

// detachedByOperation: a rebase or a bisect detaches HEAD as it goes, and
// the line saying it is in progress says so; "new commits belong to no
// branch" would be false (the rebase puts them on its branch).
func detachedByOperation(ops []facts.Operation) bool {
	for _, o := range ops {
		if o.Kind == "rebase" || o.Kind == "bisect" {
			return true
		}
	}
	return false
}

// branchStanding says where the branch stands against its upstream, with
// the diff stat's totals (and its files when they are few); nothing
// without an upstream.
func branchStanding(g facts.Git, s *facts.Start) string {
	var line string
	switch {
	case s.UpstreamGone != "":
		line = fmt.Sprintf("The upstream %s is gone: its remote branch no longer exists.", logs.Code(s.UpstreamGone))
	case g.Upstream == "":
		return ""
	case g.Ahead != nil && g.Behind != nil && *g.Ahead == 0 && *g.Behind == 0:
		line = fmt.Sprintf("Up to date with %s.", logs.Code(g.Upstream))
	case g.Ahead != nil && g.Behind != nil:
		line = fmt.Sprintf("%s ahead and %s behind %s.", commits(*g.Ahead), commits(*g.Behind), logs.Code(g.Upstream))
	default:
		line = fmt.Sprintf("Compared with %s.", logs.Code(g.Upstream))
	}
	stat := g.DiffStat
	if len(stat) < 2 || g.Upstream == "" {
		return line // nothing changed, or no comparison
	}
	totals := strings.TrimSpace(stat[len(stat)-1])
	line += " Since the merge base: " + totals + "."
	if files := stat[:len(stat)-1]; len(files) <= briefDiffFiles {
		// A file named with backticks must not close the fence early; no
		// blank line before it, so that the standing and its files are
		// one block (the ledger's unit).
		line += "\n" + strings.TrimSuffix(logs.Fence(files), "\n")
	}
	return line
}

// probeError is the first probe failure, when the probes failed.
func probeError(g facts.Git) string {
	for _, p := range g.Probes {
		if !p.OK {
			return p.Command + ": " + p.Error
		}
	}
	return ""
}

func commits(n int) string {
	if n == 1 {
		return "1 commit"
	}
	return fmt.Sprintf("%d commits", n)
}

// resumeLine says how long the resumed session slept and what that costs,
// dated: the context keeps every resume's line, and two saying "ago" of
// different resumes would read as two versions of one fact. Nothing when
// the client said none of it.
func resumeLine(r *facts.Resume, now time.Time) string {
	var parts []string
	if s := r.SecondsSinceLastResponse; s != nil {
		parts = append(parts, "the last reply was "+roughAge(time.Duration(*s)*time.Second)+" before")
	}
	if e := r.PromptCacheExpired; e != nil {
		if *e {
			parts = append(parts, "the prompt cache has likely expired, so the next reply re-reads the whole context")
		} else {
			parts = append(parts, "the prompt cache is likely still warm")
		}
	}
	if t := r.ContextTokens; t != nil {
		parts = append(parts, fmt.Sprintf("the context holds %d tokens", *t))
	}
	if len(parts) == 0 {
		return ""
	}
	// A fork is a new session that carries the old one's context: calling
	// it a resume would tell the model this is the same session.
	what := "Resumed"
	if r.Fork {
		what = "Forked"
	}
	return what + " at " + now.UTC().Format(briefTime) + " UTC: " + strings.Join(parts, "; ") + "."
}

// renderHandoff is the previous session's handoff, framed as history, with
// what git says changed since.
func renderHandoff(h facts.Handoff, since *facts.Since, upstreamMoved bool) string {
	var b strings.Builder
	b.WriteString("### The previous session, as it ended (history)\n\n")
	ended := "It ended" + atTime(h.EndedAt)
	if why := endReason(h.Reason); why != "" {
		ended += " " + why + ","
	}
	if h.Branch != "" {
		ended += " on branch " + logs.Code(h.Branch)
	}
	ended = strings.TrimSuffix(ended, ",")
	b.WriteString(ended + ".\n\n")
	if h.LastPrompt != "" {
		// Whole in handoff.json; the brief keeps its beginning and its end.
		b.WriteString("Its last request:\n\n" + logs.Quote(sanitize.Middle(h.LastPrompt, handoffPromptRunes)))
		if h.PreviousPrompt != "" {
			// "and now?" alone tells the next session nothing.
			b.WriteString("It answered this earlier request:\n\n" + logs.Quote(sanitize.Middle(h.PreviousPrompt, handoffPromptRunes)))
		}
	}
	if len(h.OpenTasks) > 0 {
		b.WriteString("Tasks it left open:\n\n")
		for _, t := range firstN(h.OpenTasks, 10) {
			b.WriteString(logs.TaskLine(t) + "\n")
		}
		if n := len(h.OpenTasks) - 10; n > 0 {
			fmt.Fprintf(&b, "- … and %d more\n", n)
		}
		b.WriteString("\n")
	}
	if e := h.OpenError; e != nil {
		fmt.Fprintf(&b, "Its last tool call had failed: %s %s\n\n%s", logs.Code(e.Tool), logs.Code(e.Input), logs.Quote(e.Error))
	}
	var clean []string
	if since != nil {
		clean = since.NowClean
	}
	if h.UncommittedIncomplete != "" && len(h.Uncommitted) == 0 {
		b.WriteString("What it left uncommitted is not known: " + h.UncommittedIncomplete + ".\n\n")
	} else if left := without(h.Uncommitted, clean); len(left) > 0 || len(clean) > 0 {
		line := fmt.Sprintf("It left %d uncommitted change(s)", len(h.Uncommitted))
		if h.UncommittedIncomplete != "" {
			line = fmt.Sprintf("It left at least %d uncommitted change(s) (%s)", len(h.Uncommitted), h.UncommittedIncomplete)
		}
		if n := len(clean); n > 0 {
			// Named, so that the claim can be checked, and the model
			// knows which of them it need not look for.
			line += fmt.Sprintf("; %d committed or undone since: %s", n, codes(firstN(clean, 8)))
			if n > 8 {
				line += fmt.Sprintf(" and %d more", n-8)
			}
			if len(left) > 0 {
				line += "; still uncommitted"
			}
		}
		if n := len(left); n > 0 {
			shown := codes(firstN(left, 8))
			if n > 8 {
				shown += fmt.Sprintf(" and %d more", n-8)
			}
			line += ": " + shown
		}
		b.WriteString(line + ".\n\n")
	}
	var changes []string
	if since != nil && len(since.Commits) > 0 {
		changes = append(changes, fmt.Sprintf("%s made since (newest: %s)", commits(len(since.Commits)), logs.Code(since.Commits[0])))
	}
	if upstreamMoved {
		changes = append(changes, "the upstream "+logs.Code(h.Upstream)+" moved")
	}
	if len(changes) > 0 {
		b.WriteString("Since then: " + strings.Join(changes, "; ") + ".\n\n")
	} else if since != nil {
		b.WriteString("Since then: no new commit.\n\n")
	}
	return b.String()
}

// endReason says in words why a session ended, from the client's reason;
// "" where the reason says nothing ("other").
func endReason(reason string) string {
	switch reason {
	case "", "other":
		return ""
	case "clear":
		return "with /clear"
	case "logout":
		return "at a logout"
	case "prompt_input_exit", "exit":
		return "when the user quit"
	case "resume":
		return "when another session was resumed"
	}
	return "(" + reason + ")"
}

// handoffPromptRunes bounds the previous session's request in the brief.
const handoffPromptRunes = 2000

// cleanSince lists the handoff's uncommitted lines (git status --short)
// whose path the status now does not show: committed or undone since.
func cleanSince(then, now []string) []string {
	dirty := map[string]bool{}
	for _, l := range now {
		if p := statusPath(l); p != "" {
			dirty[p] = true
		}
	}
	var out []string
	for _, l := range then {
		if p := statusPath(l); p != "" && !dirty[p] {
			out = append(out, l)
		}
	}
	return out
}

// statusPath is the path of a `git status --short` line: what follows the
// two status columns and a blank. A handoff written before the columns
// were kept whole lost the blank of " M path": its path follows the one
// letter and a blank.
func statusPath(line string) string {
	switch {
	case len(line) > 3 && line[2] == ' ':
		return line[3:]
	case len(line) > 2 && line[1] == ' ' && line[0] != ' ':
		return line[2:]
	}
	return ""
}

// without is list less the items of drop.
func without(list, drop []string) []string {
	var out []string
	for _, x := range list {
		if !slices.Contains(drop, x) {
			out = append(out, x)
		}
	}
	return out
}

func firstN[T any](list []T, n int) []T { return list[:min(len(list), n)] }
