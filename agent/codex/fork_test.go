package codex

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/transcript"
)

const (
	parentID = "01a21b2a-6a4c-7801-8606-1e4df77f7ea2"
	forkID   = "01a21b2a-6ecb-7cb1-a4f7-09d174f6e0f9"
)

// hookLine is a developer message as Codex 0.169–0.171 records a hook's
// context (seen in e2e/codexfork_test.go's rollouts).
func hookLine(ordinal, text string) string {
	return `{"timestamp":"2026-11-27T04:01:34.625Z","ordinal":` + ordinal + `,"type":"response_item","payload":{"type":"message","role":"developer",` +
		`"content":[{"type":"input_text","text":"` + text + `"}],"internal_chat_message_metadata_passthrough":{"content_item_kinds":["hooks.additional_context"]}}}`
}

func writeRollout(t *testing.T, dir, id string, lines ...string) string {
	t.Helper()
	os.MkdirAll(dir, 0o700)
	path := filepath.Join(dir, "rollout-2026-11-27T04-01-34-"+id+".jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// A fork's context is its parent's up to the fork: the hook texts the
// parent's rollout holds before forked_from_ordinal_exclusive, then the
// fork's own; not the parent's later ones, nor its other messages.
func TestAForksContextHoldsItsParentsHookTextsBeforeTheFork(t *testing.T) {
	sessions := t.TempDir()
	writeRollout(t, filepath.Join(sessions, "2026", "11", "26"), parentID,
		`{"ordinal":0,"type":"session_meta","payload":{"id":"`+parentID+`"}}`,
		hookLine("7", "the brief"),
		`{"ordinal":8,"type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"skills"}]}}`,
		`{"ordinal":9,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"fix it"}]}}`,
		hookLine("15", "after the fork"))
	fork := writeRollout(t, filepath.Join(sessions, "2026", "11", "27"), forkID,
		`{"ordinal":15,"type":"session_meta","payload":{"id":"`+forkID+`","forked_from_id":"`+parentID+`","forked_from_ordinal_exclusive":15}}`,
		hookLine("16", "the fork's own"))
	got, err := Injected(context.Background(), fork, transcript.DefaultOptions)
	if err != nil || strings.Join(got, "|") != "the brief|the fork's own" {
		t.Errorf("Injected = %q, %v; want the parent's brief, then the fork's own", got, err)
	}
	// Beside the fork, the same day: found there first.
	writeRollout(t, filepath.Dir(fork), parentID, hookLine("1", "same day"))
	if got, _ := Injected(context.Background(), fork, transcript.DefaultOptions); strings.Join(got, "|") != "same day|the fork's own" {
		t.Errorf("Injected = %q, want the parent beside the fork", got)
	}
}

func TestARolloutThatIsNoForkHoldsItsOwnHookTexts(t *testing.T) {
	dir := t.TempDir()
	path := writeRollout(t, dir, parentID, `{"ordinal":0,"type":"session_meta","payload":{"id":"`+parentID+`"}}`, hookLine("3", "mine"))
	if got, err := Injected(context.Background(), path, transcript.DefaultOptions); err != nil || strings.Join(got, "|") != "mine" {
		t.Errorf("Injected = %q, %v", got, err)
	}
	if _, err := Injected(context.Background(), filepath.Join(dir, "missing.jsonl"), transcript.DefaultOptions); err == nil {
		t.Error("a missing rollout read without an error")
	}
}

// A parent id that is not a thread id names nothing: a glob in it must
// not match another session's rollout.
func TestAForkOfAnIDThatIsNoThreadsFindsNoParent(t *testing.T) {
	sessions := t.TempDir()
	day := filepath.Join(sessions, "2026", "11", "27")
	writeRollout(t, day, parentID, hookLine("1", "another session's"))
	for _, id := range []string{"*", "../x", "01a21b2a-*", ""} {
		fork := writeRollout(t, day, forkID, `{"ordinal":0,"type":"session_meta","payload":{"forked_from_id":"`+id+`","forked_from_ordinal_exclusive":9}}`)
		if got, _ := Injected(context.Background(), fork, transcript.DefaultOptions); len(got) != 0 {
			t.Errorf("parent %q: Injected = %q", id, got)
		}
	}
	fork := writeRollout(t, day, forkID, `{"ordinal":0,"type":"session_meta","payload":{"forked_from_id":"0123456789ab","forked_from_ordinal_exclusive":9}}`)
	if got, _ := Injected(context.Background(), fork, transcript.DefaultOptions); len(got) != 0 {
		t.Errorf("a parent that is nowhere: Injected = %q", got)
	}
}

// A fork made before the parent's first item holds none of its texts.
func TestAForkFromTheStartHoldsNoneOfItsParentsTexts(t *testing.T) {
	day := filepath.Join(t.TempDir(), "2026", "11", "27")
	writeRollout(t, day, parentID, hookLine("0", "the brief"))
	fork := writeRollout(t, day, forkID, `{"ordinal":0,"type":"session_meta","payload":{"forked_from_id":"`+parentID+`","forked_from_ordinal_exclusive":0}}`)
	if got, _ := Injected(context.Background(), fork, transcript.DefaultOptions); len(got) != 0 {
		t.Errorf("Injected = %q, want nothing", got)
	}
}
