package hooks

import (
	"github.com/session-hooks/session-hooks/hooks/state"
	"github.com/session-hooks/session-hooks/logs/events"
	"github.com/session-hooks/session-hooks/transcript"
)

// receiptBudget is how far back the transcript is searched for a
// recovery: it was injected at the start of the turn now running.
const receiptBudget = 8 << 20

// Receipt statuses.
const (
	receiptDelivered = "delivered" // both markers reached the model
	receiptCut       = "cut"       // the start only: Claude Code replaced it with a preview
	receiptMissing   = "missing"   // neither
)

// pendRecovery records that a recovery with this nonce was injected, for
// the session's next run to look for.
func (r *Run) pendRecovery(nonce string) {
	if s := r.session(); s != nil && nonce != "" {
		s.PendingReceipt = nonce
		r.saveState(s)
	}
}

// checkReceipt looks for the session's pending recovery in the transcript
// and records what became of it in the event line; it is looked for once.
func (r *Run) checkReceipt() {
	if r.In.SessionID == "" || r.In.TranscriptPath == "" {
		return
	}
	s := r.sess
	if !r.sessLoaded {
		// Load, never start: a tool call must not create state.
		s, _ = within(r, "reading the session's state", func() *state.Session {
			s, _ := state.Load(r.Logs, r.In.SessionID)
			return s
		})
		if s != nil {
			r.sess, r.sessLoaded = s, true
		}
	}
	if s == nil || s.PendingReceipt == "" {
		return
	}
	nonce := s.PendingReceipt
	found, err := transcript.Contains(r.Ctx, r.In.TranscriptPath, []string{receiptStart(nonce), receiptEnd(nonce)}, receiptBudget)
	if err != nil {
		return // looked for again at the next run
	}
	r.ev.Receipt = &events.Receipt{Nonce: nonce, Status: receiptStatus(found[0], found[1])}
	s.PendingReceipt = ""
	r.saveState(s)
}

func receiptStatus(start, end bool) string {
	switch {
	case end:
		return receiptDelivered
	case start:
		return receiptCut
	}
	return receiptMissing
}
