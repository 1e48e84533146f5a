package hooks

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/events"
)

// SnapshotFacts is the file, per session, where pre-compact keeps its
// snapshot as data for post-compact to compare the summary with.
const SnapshotFacts = "pre-compact-state.json"

// handlePostCompact is PostCompact: Claude Code reads nothing it prints,
// so it only records the compaction, and which facts of the snapshot taken
// before it the summary does not mention: what the agent would have lost
// without the recovery.
func handlePostCompact(r *Run) string {
	f := facts.PostCompact{SchemaVersion: facts.SchemaVersion, Run: r.runFacts("post-compact")}
	summary := r.In.CompactSummary
	f.SummaryChars = logs.Len(summary)
	if summary != "" {
		sum := sha256.Sum256([]byte(summary))
		f.SummarySHA256 = hex.EncodeToString(sum[:])
	}
	snap, found := r.savedSnapshot()
	f.SnapshotFound = found
	if found {
		f.Lost = lostInSummary(snap, summary)
	}
	rec := events.Compaction{Trigger: orUnknown(r.In.Trigger), SummaryChars: f.SummaryChars,
		SummarySHA256: f.SummarySHA256, Lost: f.Lost}
	if rec.Lost == nil {
		rec.Lost = []string{}
	}
	r.ev.Compaction = &rec
	if s := r.session(); s != nil {
		s.Compactions = append(s.Compactions, rec)
		r.saveState(s)
	}
	f.Notes = append([]string(nil), r.notes...)
	f.DurationMS = float64(time.Since(r.Start).Microseconds()) / 1000
	if r.JSON {
		return facts.JSON(f)
	}
	return ""
}

// savedSnapshot reads the facts pre-compact saved for this session.
func (r *Run) savedSnapshot() (facts.Snapshot, bool) {
	snap, found, ok := within2(r, "reading the snapshot's facts", func() (facts.Snapshot, bool) {
		return savedSnapshot(r.Logs, r.In.SessionID)
	})
	return snap, ok && found
}

// savedSnapshot reads the facts pre-compact saved for session id in dir.
func savedSnapshot(dir logs.Dir, id string) (facts.Snapshot, bool) {
	var snap facts.Snapshot
	if id == "" {
		return snap, false
	}
	b, _, err := dir.Read(logs.SessionFile(id, SnapshotFacts), logs.LogReadBytes)
	if err != nil || json.Unmarshal(b, &snap) != nil {
		return snap, false
	}
	return snap, true
}

// lostInSummary names the snapshot facts the summary does not mention:
// the branch, each open task, the last request, each file written. A fact
// is mentioned when its words appear in the summary, case and spacing
// aside (a file by its path or its name; a long request by its start).
func lostInSummary(s facts.Snapshot, summary string) []string {
	text := fold(summary)
	mentioned := func(fact string) bool {
		lead := leadingWords(fold(fact), 60)
		return lead == "" || containsWords(text, lead)
	}
	var lost []string
	if b := s.Branch; b != "" && !strings.HasPrefix(b, "(") && !mentioned(b) {
		lost = append(lost, "branch "+b)
	}
	for _, t := range s.Tasks {
		if t.Status != "completed" && !mentioned(t.Content) {
			lost = append(lost, "task: "+t.Content)
		}
	}
	if s.LastPrompt != "" && !mentioned(s.LastPrompt) {
		lost = append(lost, "the last request")
	}
	for _, f := range s.FilesTouched {
		if !mentioned(f) && !mentioned(path.Base(f)) {
			lost = append(lost, "file "+f)
		}
	}
	return lost
}

// leadingWords is s's first words, as many as fit in n runes (one at
// least): a fact is looked for by its start, never cut mid-word (a cut
// word is no word of the summary, and the fact read as lost).
func leadingWords(s string, n int) string {
	words := strings.Fields(s)
	if len(words) == 0 {
		return ""
	}
	out := words[0]
	for _, w := range words[1:] {
		if utf8.RuneCountInString(out)+1+utf8.RuneCountInString(w) > n {
			break
		}
		out += " " + w
	}
	return out
}

// containsWords says whether words occur in text as whole words: "main"
// is not mentioned by "remaining".
func containsWords(text, words string) bool {
	for at := 0; ; {
		i := strings.Index(text[at:], words)
		if i < 0 {
			return false
		}
		start, end := at+i, at+i+len(words)
		before, _ := utf8.DecodeLastRuneInString(text[:start])
		after, _ := utf8.DecodeRuneInString(text[end:])
		if !isWordRune(before) && !isWordRune(after) {
			return true
		}
		at = start + 1
	}
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// fold reduces s to its words, lowered: a fact the summary keeps in other
// letter case ("Fix The Lexer", "ParseConfig", "STRASSE" as "straße"),
// wrapped, or with other punctuation around its words (`code`, **bold**,
// hyphens, quotes) still counts as mentioned.
func fold(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == 'ß' || r == 'ẞ':
			b.WriteString("ss")
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteByte(' ')
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
