package hooks

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/hooks/state"
	"github.com/session-hooks/session-hooks/transcript"
)

// The ledger is what of ours the session's context holds now. A resumed
// session keeps its context (only a compaction replaces it), so text a
// start injected is still in front of the model at every later start of
// the same session: re-sending it repeats it, and repeated injected text
// is the first reason people uninstall tools like this one. Each
// paragraph of a brief is recorded (as a hash) in the session's state
// when injected; a later start of the same context injects only the
// paragraphs it does not hold, and nothing when it holds them all. A
// compaction starts a new context: the recovery's paragraphs are its
// ledger.

// paragraphs splits an output into its blocks (the brief renders each
// fact as one block, ended by a blank line) and hashes each.
func paragraphs(out string) (blocks, hashes []string) {
	for _, p := range strings.Split(strings.TrimSpace(out), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			blocks = append(blocks, p)
			hashes = append(hashes, paragraphHash(p))
		}
	}
	return blocks, hashes
}

// paragraphHash names the fact a paragraph states: the same fact said
// shorter or longer is one fact, so that a context holding the one is not
// sent the other. Where the brief's standing against the upstream (the
// recovery says it without the diff stat) is the fact, its first sentence
// names it; any other paragraph is its whole text.
func paragraphHash(p string) string {
	sum := sha256.Sum256([]byte(factKey(p)))
	return hex.EncodeToString(sum[:8])
}

// factKey is what of a paragraph identifies its fact.
func factKey(p string) string {
	if standing().MatchString(p) {
		if first, _, found := strings.Cut(p, ". "); found {
			p = first + "."
		}
		p, _, _ = strings.Cut(p, "\n")
		return "standing: " + p
	}
	return p
}

// standing recognises branchStanding's first sentence.
var standing = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("^(Up to date with `|Compared with `|The upstream `|\\d+ commits? ahead and \\d+ commits? behind `)")
})

// onlyNew is out less the paragraphs the context holds already (held),
// and the hashes of what it keeps. The brief's heading comes only with
// something new, and only once in a context. Nothing new is an empty
// output.
func onlyNew(out string, held []string) (string, []string) {
	blocks, hashes := paragraphs(out)
	var kept, keptHashes []string
	headingAt := -1
	for i, p := range blocks {
		if slices.Contains(held, hashes[i]) || isHeading(p) && headingAt >= 0 {
			continue
		}
		if isHeading(p) {
			headingAt = len(kept)
		}
		kept, keptHashes = append(kept, p), append(keptHashes, hashes[i])
	}
	if len(kept) == 0 || len(kept) == 1 && headingAt == 0 {
		return "", nil // a heading alone says nothing
	}
	return strings.Join(kept, "\n\n") + "\n\n", keptHashes
}

// maxLedger bounds the hashes kept per context: a long session resumed
// many times must not grow its state without bound.
const maxLedger = 200

// injectOnlyNew filters a start's output through the session's ledger
// and records what it injects. A session that starts afresh (startup,
// clear: a new session id) has an empty ledger, so it injects all.
func (r *Run) injectOnlyNew(out string) string {
	s := r.session()
	if s == nil || r.NoLog {
		return out // without state, nothing is known of the context
	}
	held := s.Injected
	replaced := r.agent().StartReplacesStart && len(s.LastStartInjected) > 0
	if replaced {
		// The client dropped the previous start's block for this one.
		held = slices.DeleteFunc(slices.Clone(held), func(h string) bool { return slices.Contains(s.LastStartInjected, h) })
	}
	if r.In.Source == protocol.SourceFork {
		// A fork keeps its parent's context under a new session id: what
		// the parent's starts injected is in its transcript.
		held = append(held, r.heldByTranscript()...)
	}
	said := staleable(out)
	var gone, stale []string
	if !replaced { // else the context no longer holds the earlier start's facts
		gone, stale = goneSince(s.Said, said)
		held = slices.DeleteFunc(slices.Clone(held), func(h string) bool { return slices.Contains(stale, h) })
	}
	out, kept := onlyNew(out, held)
	if len(gone) > 0 {
		out += strings.Join(gone, "\n\n") + "\n\n"
	}
	if !slices.Equal(s.Said, said) {
		s.Said = said
		r.saveState(s)
	}
	if replaced || len(stale) > 0 {
		s.Injected = held
	}
	if replaced {
		s.LastStartInjected = nil
	}
	if len(kept) > 0 || replaced {
		s.Injected = append(s.Injected, kept...)
		s.Injected = s.Injected[max(0, len(s.Injected)-maxLedger):]
		s.LastStart, s.LastStartInjected = r.Start.UTC(), kept
		r.saveState(s)
	}
	return out
}

// staleFacts are the brief's facts that git can take back between two
// starts of one context (a stash popped, a worktree removed, an
// operation ended), by the start of their paragraph, with what a later
// start says when its brief no longer has them: the context would
// otherwise keep stating them.
var staleFacts = []struct{ prefix, gone string }{
	{"**In progress:** ", "No operation is in progress now: the one named earlier in this conversation has ended."},
	{"Stashes: ", "No stash now: the stashes named earlier in this conversation are gone."},
	{"Other worktrees: ", "No other worktree now: those named earlier in this conversation are gone."},
}

// staleable lists the staleFacts an output states, each as its prefix,
// "#", and its paragraph's hash.
func staleable(out string) []string {
	var said []string
	blocks, hashes := paragraphs(out)
	for _, f := range staleFacts {
		if i := slices.IndexFunc(blocks, func(p string) bool { return strings.HasPrefix(p, f.prefix) }); i >= 0 {
			said = append(said, f.prefix+"#"+hashes[i])
		}
	}
	return said
}

// goneSince is what to say of the facts the context states (held) that
// the brief no longer has (now), and the hashes of the paragraphs that
// stated them: the context no longer holds them as true, so the same
// fact coming back must be stated again.
func goneSince(held, now []string) (gone, stale []string) {
	for _, f := range staleFacts {
		i := slices.IndexFunc(held, func(h string) bool { return strings.HasPrefix(h, f.prefix+"#") })
		if i >= 0 && !slices.ContainsFunc(now, func(h string) bool { return strings.HasPrefix(h, f.prefix+"#") }) {
			gone, stale = append(gone, f.gone), append(stale, strings.TrimPrefix(held[i], f.prefix+"#"))
		}
	}
	return gone, stale
}

// heldByTranscript hashes the paragraphs of what the transcript says
// SessionStart hooks injected into the context it ends in.
func (r *Run) heldByTranscript() []string {
	if r.In.TranscriptPath == "" {
		return nil
	}
	texts, _ := within(r, "reading what the context holds", func() []string {
		path := r.In.TranscriptPath
		if _, err := os.Stat(path); err != nil && r.In.ContextTokens != nil {
			// At a fork's start its own transcript is not written yet:
			// the parent's, in the same directory, holds the context.
			path = r.forkParent(path, *r.In.ContextTokens)
		}
		if path == "" {
			return nil
		}
		t, _ := r.agent().Injected(r.Ctx, path, transcript.DefaultOptions)
		return t
	})
	var held []string
	for _, t := range texts {
		_, hashes := paragraphs(t)
		held = append(held, hashes...)
	}
	return held
}

// forkParent is the session file a fork at own was made from, as the
// agent finds it among the repository's worktrees ("" when it cannot).
func (r *Run) forkParent(own string, tokens int) string {
	find := r.agent().ForkParent
	if find == nil {
		return ""
	}
	worktrees, _ := gitdiag.Within(r.Ctx, r.Git, func(repo *gitdiag.Repo) ([]string, error) {
		var paths []string
		if m, ok := repo.MainWorktree(); ok {
			paths = append(paths, m.Path)
		}
		for _, w := range repo.Worktrees() {
			paths = append(paths, w.Path)
		}
		return paths, nil
	})
	return find(r.Ctx, own, worktrees, tokens)
}

// newContext records what the new context a compaction began holds of
// ours: the recovery, and what survived the compaction (held).
func (r *Run) newContext(out string, held []string) {
	s := r.session()
	if s == nil || r.NoLog {
		return
	}
	_, hashes := paragraphs(out)
	hashes = slices.Concat(held, hashes) // a copy: held is the state's own list
	s.Injected = hashes[max(0, len(hashes)-maxLedger):]
	s.Said = staleable(out)
	r.saveState(s)
}

// survivingInjections is what of ours a compaction kept. A client that
// keeps the starts of the run that asked for the compaction (Agent.
// KeepsRunsStarts) has them in the new context, written after the last
// request. The session's latest start kept them when it came after the
// snapshot's last request (or there was none); any start before that
// request was summarised away.
func (r *Run) survivingInjections(rec *facts.Recovery) []string {
	s := r.session()
	if r.agent().StartReplacesStart && s != nil {
		// The latest start's block rides every request until a
		// compaction drops it (seen: Copilot CLI's automatic compaction
		// inside a run); a start after the snapshot (a resumed run) put
		// a block back.
		if rec != nil && rec.Facts != nil {
			if snap, err := time.Parse(time.RFC3339Nano, rec.Facts.Time); err == nil && s.LastStart.After(snap) {
				return s.LastStartInjected
			}
		}
		return nil
	}
	if !r.agent().KeepsRunsStarts || s == nil || rec == nil || !rec.Found || rec.Facts == nil || s.LastStart.IsZero() {
		return nil
	}
	if at := rec.Facts.LastPromptAt; at != "" {
		prompt, err := time.Parse(time.RFC3339Nano, at)
		if err != nil || !s.LastStart.After(prompt) {
			return nil
		}
	}
	if snap, err := time.Parse(time.RFC3339Nano, rec.Facts.Time); err != nil || s.LastStart.After(snap) {
		return nil // a start after the snapshot belongs to no earlier context
	}
	return s.LastStartInjected
}

// notePrompt keeps the request a prompt hook was given, for the hooks of
// the same run that read a transcript the client has not written yet.
func (r *Run) notePrompt() {
	s := r.session()
	if protocol.IsHoldReason(r.In.Prompt) {
		return // the held stop's reason, sent back as a request: not the user's
	}
	if p := transcript.Request(r.In.Prompt); p != "" && s != nil && !r.NoLog {
		s.Prompt, s.PromptAt, s.Held = p, r.Now().UTC(), ""
		r.saveState(s)
	}
}

// withPromptSeen is the transcript's facts with the request the prompt
// hook saw, when the transcript does not show it yet (Copilot CLI writes
// its events at exit): a terse one keeps the transcript's last request
// beside it, and an error before it is no longer what is open.
func withPromptSeen(tf *transcript.Facts, s *state.Session) *transcript.Facts {
	if s == nil || s.Prompt == "" || s.Prompt == tf.LastPrompt {
		return tf
	}
	if at, err := time.Parse(time.RFC3339Nano, tf.LastPromptAt); err == nil && !at.Before(s.PromptAt) {
		return tf
	}
	out := *tf
	out.PreviousPrompt = ""
	if transcript.Terse(s.Prompt) {
		out.PreviousPrompt = tf.LastPrompt
	}
	out.LastPrompt, out.LastPromptAt = s.Prompt, s.PromptAt.Format(time.RFC3339Nano)
	out.ErrorBeforeRequest = out.OpenError != nil
	return &out
}
