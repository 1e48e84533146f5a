// Package events is the hooks' own record: one JSON line per run in
// .claude/logs/events.jsonl, saying what ran, for which session, how long
// each part took, what was printed or cut, what was decided and what went
// wrong. People ask it "what did my hooks do"; CI scripts read it as data;
// `session-hooks summary` renders a session from it.
package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/session-hooks/session-hooks/internal/seal"
	"github.com/session-hooks/session-hooks/logs"
)

// File is the event log, below the log directory.
const File = "events.jsonl"

// MaxSize is where the log rotates: the current file becomes
// events.jsonl.1 (replacing the previous one) and a new one starts.
const MaxSize = 4 << 20

// Event is one run of a hook.
type Event struct {
	SchemaVersion int       `json:"schema_version"`
	Time          time.Time `json:"time"`
	Session       string    `json:"session_id,omitempty"`
	Event         string    `json:"event,omitempty"` // hook_event_name
	Subcommand    string    `json:"subcommand"`
	Client        string    `json:"client,omitempty"` // the client that ran the hook, as --agent names it
	Source        string    `json:"source,omitempty"`
	Trigger       string    `json:"trigger,omitempty"`
	Reason        string    `json:"reason,omitempty"`
	Model         string    `json:"model,omitempty"`
	DurationMS    float64   `json:"duration_ms"`
	Probes        []Probe   `json:"probes,omitempty"`
	Bytes         int       `json:"bytes_printed"`
	Truncated     bool      `json:"truncated,omitempty"` // output cut to fit
	Skipped       []string  `json:"skipped,omitempty"`   // notes: what was skipped and why
	Decision      string    `json:"decision,omitempty"`  // stop: block, allow, dry run; post-tool: warn
	Context       *int      `json:"context_tokens,omitempty"`
	Errors        []Error   `json:"errors,omitempty"`
	Engine        string    `json:"git_engine,omitempty"`
	// Compacted says whether this run marks a compaction: true for a
	// pre-compaction hook a compaction follows, and for the first prompt
	// after a compaction a client announces no other way; false for a
	// pre-compaction hook that fires whether or not one follows. Absent
	// from lines written before it existed, where a pre-compact run was
	// one compaction.
	Compacted *bool `json:"compacted,omitempty"`
	// Compaction is post-compact's record of a compaction.
	Compaction *Compaction `json:"compaction,omitempty"`
	// Receipt says whether the recovery injected after a compaction
	// reached the model: delivered, cut (replaced by a preview) or missing.
	Receipt *Receipt `json:"receipt,omitempty"`
	// Injected is what the run gave the model, as the client got it (the
	// printed text, or the JSON reply), for the events whose output reaches
	// the model; at most the client's limit.
	Injected string `json:"injected,omitempty"`
	Version  string `json:"version"`
}

// Compaction is what PostCompact said of a compaction, and which facts
// of the snapshot taken before it the summary does not mention.
type Compaction struct {
	Trigger       string   `json:"trigger"`
	SummaryChars  int      `json:"summary_chars"`
	SummarySHA256 string   `json:"summary_sha256,omitempty"`
	Lost          []string `json:"lost"`
}

// Receipt is what became of one injected recovery.
type Receipt struct {
	Nonce  string `json:"nonce"`
	Status string `json:"status"` // delivered, cut, missing
}

// Probe is one timed part of a run.
type Probe struct {
	Command    string  `json:"command"`
	DurationMS float64 `json:"duration_ms"`
	OK         bool    `json:"ok"`
}

// Error is one failure, by kind and message.
type Error struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// MS converts a duration for the log.
func MS(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Append adds one event as one line, written by a single O_APPEND write so
// that parallel hooks never interleave their lines, rotating first when the
// log has grown past MaxSize. The log directory is checked as for any log.
func Append(d logs.Dir, e Event) error {
	_, err := AppendAt(d, e)
	return err
}

// AppendAt is Append, saying where in the current log the line landed
// (its offset; Head is left for the export to read, which only it needs):
// the position an export that starts with this event starts from.
func AppendAt(d logs.Dir, e Event) (Position, error) {
	if err := d.Ensure(); err != nil {
		return Position{}, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // a "<" in a message stays "<", as in every JSON output
	if err := enc.Encode(e); err != nil {
		return Position{}, err
	}
	line := logs.Safe(File, bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	// Sealed, so that summary and doctor can tell our lines from lines
	// a repository committed; a line without a key stays a record for
	// people, and is not read back.
	if sealed, err := seal.JSON(d.SealName(File), line); err == nil {
		line = sealed
	}
	line = append(line, '\n')
	path := filepath.Join(d.Path, File)
	f, fi, err := openLog(path)
	if err != nil {
		return Position{}, err
	}
	if rotated, err := rotate(f, fi, path); err != nil {
		f.Close()
		return Position{}, err
	} else if rotated {
		// Those that opened the old file before the rename append to it
		// as File+".1"; this run starts the new one.
		f.Close()
		if f, _, err = openLog(path); err != nil {
			return Position{}, err
		}
	}
	// On a full disk a write may land in part: cut the file back to where
	// it was rather than leave a torn line.
	before, serr := f.Seek(0, io.SeekEnd)
	n, err := f.Write(line)
	if (err != nil || n < len(line)) && serr == nil {
		f.Truncate(before)
	}
	at := Position{Offset: before} // in the file now named File; Head left to the reader
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return at, err
}

// openLog opens the event log for appending, refusing a symbolic link (at
// open), anything but a regular file, and a file with other hard links:
// either would make us write into a file somebody else chose.
func openLog(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|noFollow, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot append to %s: %w", path, err)
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
	case !fi.Mode().IsRegular():
		err = fmt.Errorf("%s is not a regular file; not appending to it", path)
	case linkCount(fi) > 1:
		err = fmt.Errorf("%s has %d hard links; not appending to it", path, linkCount(fi))
	case fi.Mode().Perm() != 0o600 && runtime.GOOS != "windows":
		err = f.Chmod(0o600) // found open to others: what sessions said is private
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// rotate renames the open log f (fi its state when opened) to File+".1"
// when it has grown past MaxSize. Many hooks may see the same full log at once: each takes the
// log's lock in turn and renames only if path still is f, so exactly one
// of them rotates and no rotated file is replaced by a newer, nearly empty
// one.
func rotate(f *os.File, fi fs.FileInfo, path string) (bool, error) {
	if fi.Size() <= MaxSize {
		return false, nil
	}
	unlock := lock(f)
	defer unlock()
	now, err := os.Lstat(path)
	if err != nil || !os.SameFile(fi, now) {
		return false, nil // rotated by another hook meanwhile
	}
	if err := os.Rename(path, path+".1"); err != nil {
		return false, fmt.Errorf("cannot rotate %s: %w", path, err)
	}
	return true, nil
}

// Read returns the events of the log (the rotated file first), skipping
// lines that are not events or that this user's session-hooks did not
// write.
func Read(d logs.Dir) ([]Event, error) {
	l, err := ReadLog(d)
	return l.Events, err
}

// Log is what the event log holds that can be trusted, and how many lines
// were set aside.
type Log struct {
	Events []Event
	// Ignored counts the lines without a valid seal (package seal): lines a
	// repository committed, or written by hand, by another user, or by a
	// version of session-hooks before seals.
	Ignored int
}

// maxRead bounds what is read of each file: a log rotates past MaxSize,
// and one that grew far past it was not grown by hooks.
const maxRead = 2 * MaxSize

// ReadLog reads the event log as Read does, counting what it ignored.
func ReadLog(d logs.Dir) (Log, error) {
	var l Log
	found := false
	for _, name := range []string{File + ".1", File} {
		b, _, err := d.ReadUnsealed(name, maxRead)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return l, err
		}
		found = true
		for line := range bytes.Lines(b) {
			line = bytes.TrimSuffix(line, []byte("\n"))
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			body, err := seal.OpenJSON(d.SealName(File), line)
			var e Event
			switch {
			case err != nil:
				l.Ignored++
			case json.Unmarshal(body, &e) == nil && !e.Time.IsZero():
				l.Events = append(l.Events, e)
			}
		}
	}
	if !found {
		return l, fmt.Errorf("no %s in %s yet: the hooks have not run here", File, d.Path)
	}
	return l, nil
}
