package hooks

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
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

func paragraphHash(p string) string {
	sum := sha256.Sum256([]byte(p))
	return hex.EncodeToString(sum[:8])
}

// onlyNew is out less the paragraphs the context holds already (held),
// and the hashes of what it keeps. The brief's heading comes only with
// something new, and only once in a context. Nothing new is an empty
// output.
func onlyNew(out string, held []string) (string, []string) {
	blocks, hashes := paragraphs(out)
	heading := strings.TrimSpace(briefHeading)
	var kept, keptHashes []string
	headingAt := -1
	for i, p := range blocks {
		if slices.Contains(held, hashes[i]) || p == heading && headingAt >= 0 {
			continue
		}
		if p == heading {
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
	out, kept := onlyNew(out, s.Injected)
	if len(kept) > 0 {
		s.Injected = append(s.Injected, kept...)
		s.Injected = s.Injected[max(0, len(s.Injected)-maxLedger):]
		r.saveState(s)
	}
	return out
}

// newContext records a compaction's recovery as all the new context
// holds of ours.
func (r *Run) newContext(out string) {
	s := r.session()
	if s == nil || r.NoLog {
		return
	}
	_, hashes := paragraphs(out)
	s.Injected = hashes[max(0, len(hashes)-maxLedger):]
	r.saveState(s)
}
