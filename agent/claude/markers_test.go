package claude

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/session-hooks/session-hooks/internal/testenv"
)

// realSessions are the real Claude Code transcripts of the shared
// recovery set, beside the checkout (never committed here).
const realSessions = "../../../shared/recovery/corpus"

// The markers the reader matches are the ones Claude Code writes, read
// from real transcripts, not from this package's own constants: a rename
// that rewrote "[Request interrupted by user" once made the marker a
// request. Each marker met at the start of a user's text is never taken
// as the request; only words typed after the interruption's bracket are.
func TestTheMarkersAreTheOnesRealTranscriptsHold(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(realSessions, "*.jsonl"))
	if err == nil && len(files) == 0 {
		err = os.ErrNotExist
	}
	testenv.Need(t, "the shared recovery set", err)
	seen := map[string]int{}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			line := sc.Bytes()
			if gjson.GetBytes(line, "type").Str != "user" {
				continue
			}
			content := gjson.GetBytes(line, "message.content")
			kind, request := promptOf(content)
			text := strings.TrimSpace(content.Str)
			if content.IsArray() {
				text = strings.TrimSpace(content.Get("0.text").Str)
			}
			for _, marker := range []string{"[Request interrupted by user", "<local-command-stdout>", "<command-name>", "<task-notification>"} {
				if !strings.HasPrefix(text, marker) {
					continue
				}
				seen[marker]++
				if kind == promptReal && strings.Contains(request, strings.TrimPrefix(marker, "[")) {
					t.Errorf("%s: %q is taken as the request %q", filepath.Base(name), text[:min(len(text), 80)], request)
				}
			}
		}
		f.Close()
	}
	if !realTranscriptsHold(files, rejectedPrefix) {
		t.Errorf("no real transcript holds the rejection wording %q: it no longer matches what Claude Code writes", rejectedPrefix)
	}
	if seen["[Request interrupted by user"] == 0 {
		t.Errorf("no interruption found in the real transcripts (%v): the marker no longer matches what Claude Code writes", seen)
	}
}

// realTranscriptsHold says whether any of the files holds text (as JSON
// writes it: a quote escaped).
func realTranscriptsHold(files []string, text string) bool {
	escaped := strings.ReplaceAll(text, `"`, `\"`)
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err == nil && strings.Contains(string(b), escaped) {
			return true
		}
	}
	return false
}
