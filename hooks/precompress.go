package hooks

import (
	"fmt"
	"os"

	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/transcript"
)

// handlePreCompress is pre-compact for a client whose pre-compaction hook
// runs before every request, compaction or not, and which has no event
// after one (Gemini CLI's PreCompress). It must be cheap: a transcript
// that has not changed since the last snapshot is not read again. It must
// not lose the snapshot a compaction needs: once the transcript shows a
// compaction not yet recovered, the snapshot taken before it stays until
// the recovery is given. It prints nothing: the client shows a
// PreCompress hook's output to the person only.
func handlePreCompress(r *Run) string {
	s := r.session()
	of := transcriptStamp(r)
	if s != nil && of != "" && of == s.SnapshotOf {
		return ""
	}
	var compaction string
	if tf, err := r.readTranscript(r.In.TranscriptPath, transcript.DefaultOptions); err == nil {
		compaction = tf.Compaction
	}
	if s != nil && keepSnapshot(s.SnapshotOf, s.SnapshotCompaction, s.Recovered, compaction) {
		return ""
	}
	f := gatherPreCompact(r)
	text := renderSnapshot(f, r)
	// No checkpoint: this runs before every request, and a checkpoint
	// marks a compaction.
	notes := r.writeLogs(r.snapshotWrites(text, f.Snapshot, false)...)
	if s != nil && len(notes) == 0 {
		s.SnapshotOf, s.SnapshotCompaction = of, compaction
		r.saveState(s)
	}
	if r.JSON {
		f.HookNotes = append(f.HookNotes, notes...)
		return facts.JSON(f)
	}
	return ""
}

// keepSnapshot decides whether the snapshot taken from transcript
// snapshotOf, which then showed compaction snapshotCompaction, must stay:
// it must while the transcript shows a compaction (now) that came after
// it and whose recovery (recovered) was not given yet.
func keepSnapshot(snapshotOf, snapshotCompaction, recovered, now string) bool {
	return snapshotOf != "" && now != "" && now != snapshotCompaction && now != recovered
}

// pendingCompaction is the compaction whose recovery the session was not
// given yet, for a client with no event after a compaction: the one the
// transcript shows, or the one the pre-compaction hook marked where it
// runs only for a compaction; "" when there is none.
func (r *Run) pendingCompaction() string {
	if !r.agent().LateRecovery {
		return ""
	}
	s := r.session()
	if s == nil {
		return ""
	}
	if r.agent().CompactHookCompacts {
		if c := s.SnapshotCompaction; c != s.Recovered {
			return c
		}
		return ""
	}
	if r.In.TranscriptPath == "" {
		return ""
	}
	tf, err := r.readTranscript(r.In.TranscriptPath, transcript.DefaultOptions)
	if err != nil || tf.Compaction == "" || tf.Compaction == s.Recovered {
		return ""
	}
	return tf.Compaction
}

// recovered records that the session was given the recovery of a
// compaction.
func (r *Run) recovered(compaction string) {
	if s := r.session(); s != nil {
		s.Recovered = compaction
		r.saveState(s)
	}
}

// transcriptStamp is the transcript's size and modification time, "" when
// it cannot be read.
func transcriptStamp(r *Run) string {
	path := r.In.TranscriptPath
	if path == "" {
		return ""
	}
	fi, err, ok := within2(r, "looking at the transcript", func() (os.FileInfo, error) { return os.Stat(path) })
	if !ok || err != nil {
		return ""
	}
	return fmt.Sprintf("%d@%d", fi.Size(), fi.ModTime().UnixNano())
}
