// Package state keeps what the hooks must remember about a session that
// the transcript cannot tell: its number in the project's sequence of
// sessions, where it started, and which context thresholds were already
// announced. One small JSON file per session, in .claude/logs/state/,
// written atomically; a corrupt one is replaced, never fatal.
package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/events"
)

// Dir is the state directory below the log directory.
const Dir = "state"

// Session is one session's state.
type Session struct {
	ID        string    `json:"session_id"`
	Number    int       `json:"session_number"`
	StartedAt time.Time `json:"started_at"`
	// StartHead is the commit HEAD pointed to when the session started
	// (empty on an unborn branch): commits and files since are this
	// session's work.
	StartHead string `json:"start_head,omitempty"`
	// StartUntracked are the paths untracked when the session started
	// (up to MaxStartUntracked): the user's, not the agent's work.
	StartUntracked []string `json:"start_untracked,omitempty"`
	Announced      []string `json:"announced,omitempty"` // context thresholds already announced
	// Models are the models the session's events named, in order of
	// appearance; Memory maps each memory file (CLAUDE.md…) to the sha256
	// it had when the session started ("" when absent).
	Models []string          `json:"models,omitempty"`
	Memory map[string]string `json:"memory,omitempty"`
	// Compactions are what PostCompact recorded of each compaction.
	Compactions []events.Compaction `json:"compactions,omitempty"`
	// PendingReceipt is the nonce of a recovery injected and not yet
	// looked for in the transcript.
	PendingReceipt string `json:"pending_receipt,omitempty"`
	// Injected hashes each paragraph of ours the session's context holds
	// now (hooks' ledger): a compaction replaces it, a resume keeps it.
	Injected []string `json:"injected,omitempty"`
	// LastStart is when the session's latest start injected something, and
	// the hashes of what it injected: kept by a compaction that no request
	// came between (Claude Code keeps the outputs of the run that asked for
	// the compaction), so the recovery need not say them again.
	LastStart         time.Time `json:"last_start,omitempty"`
	LastStartInjected []string  `json:"last_start_injected,omitempty"`
	// For a client with no event after a compaction (Gemini CLI), whose
	// pre-compaction hook runs before every request: SnapshotOf is the
	// transcript (size and modification time) the session's snapshot was
	// taken from, SnapshotCompaction the compaction that transcript
	// showed then, and Recovered the compaction whose recovery the
	// session was given. For one whose pre-compaction hook runs only for a
	// compaction (Copilot CLI), SnapshotCompaction names the compaction
	// the latest snapshot was taken for.
	SnapshotOf         string `json:"snapshot_of,omitempty"`
	SnapshotCompaction string `json:"snapshot_compaction,omitempty"`
	Recovered          string `json:"recovered_compaction,omitempty"`
	// Prompt is the latest request the session's prompt hook was given,
	// cleaned, and when: Copilot CLI writes its events at exit, so its
	// transcript shows a run's request only after the run's own hooks.
	Prompt   string    `json:"prompt,omitempty"`
	PromptAt time.Time `json:"prompt_at,omitzero"`
	// Said are the facts git can take back (a stash, another worktree, an
	// operation in progress) that the context states, by the start of
	// their paragraph: a later start whose brief lacks one says it is gone.
	Said []string `json:"said_facts,omitempty"`
	// Held names (a hash of) the request whose turn's stop a stop hook
	// held; the next request of the user clears it. The stop hook holds a
	// turn once.
	Held string `json:"held_turn,omitempty"`
	// DeferredStart is the source of a start whose context waits for the
	// run's first prompt (protocol.Agent.StartOnPrompt); "" when none does.
	DeferredStart string `json:"deferred_start,omitempty"`
}

// SeeModel records the model of an event and returns the previous one
// when it changed.
func (s *Session) SeeModel(model string) (previous string, changed bool) {
	if model == "" {
		return "", false
	}
	if n := len(s.Models); n == 0 || s.Models[n-1] != model {
		s.Models = append(s.Models, model)
		if n > 0 {
			return s.Models[n-1], true
		}
	}
	return "", false
}

// Load returns the session's state; a missing one is (nil, ""), a
// corrupt one (nil, why), so that the caller starts afresh.
func Load(d logs.Dir, id string) (*Session, string) {
	b, _, err := d.Read(file(id), 1<<20)
	if os.IsNotExist(err) {
		return nil, ""
	}
	var s Session
	if err == nil {
		err = json.Unmarshal(b, &s)
	}
	if err != nil || s.ID != id || s.Number < 1 {
		return nil, "the state of session " + id + " was unreadable and is started afresh"
	}
	return &s, ""
}

// MaxStartUntracked bounds the untracked paths a state remembers.
const MaxStartUntracked = 2000

// Start makes the state of a session seen for the first time: its number
// follows the highest number any session of the project has.
func Start(d logs.Dir, id, head string, now time.Time) *Session {
	return &Session{ID: id, Number: highest(d) + 1, StartedAt: now.UTC(), StartHead: head}
}

// numbersDir holds one file per session number given out, named by the
// number and holding the session id: creating it exclusively is what makes
// a number this session's.
const numbersDir = "numbers"

// Claim makes the session's number its own: when sessions start at once
// they all see the same highest number, and each takes the next one no
// other session holds. A number that cannot be claimed at all (a
// read-only log directory) is kept as it is.
func (s *Session) Claim(d logs.Dir) error {
	for range 1000 {
		name := filepath.Join(Dir, numbersDir, strconv.Itoa(s.Number))
		err := d.Create(name, []byte(s.ID))
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
		if b, _, err := d.ReadUnsealed(name, 1<<10); err == nil && string(b) == s.ID {
			return nil // this session's own claim, from a parallel run
		}
		s.Number++
	}
	return fmt.Errorf("no free session number after %d", s.Number)
}

// Save writes the state atomically.
func (s *Session) Save(d logs.Dir) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return d.WriteSealed(file(s.ID), append(b, '\n'), false)
}

// Announce records a threshold and says whether it is new this session.
func (s *Session) Announce(level string) bool {
	for _, a := range s.Announced {
		if a == level {
			return false
		}
	}
	s.Announced = append(s.Announced, level)
	return true
}

func file(id string) string { return filepath.Join(Dir, logs.SafeName(id)+".json") }

// highest is the largest session number given out in the project.
//
// Claims are dense: each session takes the highest number plus one, or
// the next free after it. So the highest claim is found by probing
// numbers, doubling the step until one is missing and then halving: a
// score of lstats for a thousand sessions, where listing the claims grew
// with them (0.2 ms for 300). Claims start at 1, or above the states of
// the sessions from before claims: floorFile says where, written once by
// the listing that found them so.
//
// Once there is a claim the claims alone answer: the first took its number
// above every state written before. The states are read only where there
// is no claim (sessions from before claims, a log directory where none
// could be made): reading every state at every start made a new session's
// start grow with the project's sessions, 6.8 ms for 80 of them.
func highest(d logs.Dir) int {
	if exists, err := d.Exists(filepath.Join(Dir, numbersDir)); err == nil {
		claimed := func(n int) bool { return exists(strconv.Itoa(n)) }
		if claimed(1) {
			return lastClaim(claimed, 1)
		}
		if f := floor(d); claimed(f + 1) {
			return lastClaim(claimed, f+1)
		}
	}
	n, low := 0, math.MaxInt
	claims, _ := d.ReadDir(filepath.Join(Dir, numbersDir))
	for _, e := range claims {
		if v, err := strconv.Atoi(e.Name()); err == nil && v > 0 {
			n, low = max(n, v), min(low, v)
		}
	}
	if n > 0 {
		if low > 1 {
			d.Create(floorPath, []byte(strconv.Itoa(low-1)))
		}
		return n
	}
	entries, err := d.ReadDir(Dir)
	if err != nil {
		return n
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		b, _, err := d.Read(filepath.Join(Dir, e.Name()), 1<<20)
		var s Session
		if err == nil && json.Unmarshal(b, &s) == nil {
			n = max(n, s.Number)
		}
	}
	return n
}

// floorFile holds the number below the first claim, where claims began
// above the states of earlier sessions (see highest).
const floorFile = "floor"

var floorPath = filepath.Join(Dir, numbersDir, floorFile)

func floor(d logs.Dir) int {
	// Unreadable or not a number, it is 0: claims from 1, not there.
	b, _, _ := d.ReadUnsealed(floorPath, 32)
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
}

// lastClaim is the highest of the dense claims from first, which is
// claimed.
func lastClaim(claimed func(int) bool, first int) int {
	lo, step := first, 1
	// The bound holds on a file system that says every name exists.
	for step < 1<<30 && claimed(lo+step) {
		lo += step
		step *= 2
	}
	hi := lo + step // not claimed
	for hi-lo > 1 {
		if mid := lo + (hi-lo)/2; claimed(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}
