package claude

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/session-hooks/session-hooks/transcript"
)

// FuzzTailReader: whatever the content, chunk boundaries and limits, the
// lines come back newest first, exactly, except those over the limit,
// which are counted, never returned in pieces.
func FuzzTailReader(f *testing.F) {
	f.Add([]byte("one\ntwo\nthree\n"), uint16(100))
	f.Add([]byte("no final newline\nlast"), uint16(4))
	f.Add([]byte("\n\n\nblank lines\n\n"), uint16(1))
	f.Fuzz(func(t *testing.T, data []byte, maxLine uint16) {
		limit := int(maxLine)%200 + 1
		tr := newTailReader(bytes.NewReader(data), int64(len(data)), 1<<40, limit)
		var want []string
		oversized := 0
		for _, l := range strings.Split(string(data), "\n") {
			switch {
			case l == "":
			case len(l) > limit:
				oversized++
			default:
				want = append(want, l)
			}
		}
		for i := len(want) - 1; i >= 0; {
			line, over, err := tr.Next()
			if err != nil {
				t.Fatalf("stopped early: %v (want %q)", err, want[i])
			}
			if over {
				continue
			}
			if string(line) != want[i] {
				t.Fatalf("got %q, want %q", line, want[i])
			}
			i--
		}
		for {
			_, _, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if tr.Oversized != oversized {
			t.Fatalf("counted %d oversized lines, want %d", tr.Oversized, oversized)
		}
	})
}

// FuzzRead: any transcript content gives bounded, clean facts.
func FuzzRead(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join(fixtureDir, fixtureSession+".jsonl")); err == nil {
		f.Add(b[len(b)-min(len(b), 20000):])
	}
	f.Add([]byte(`{"type":"assistant","message":{"content":[{"type":"text","text":"x\u001b[31m sk-ant-abcdefghijkl"}]}}` + "\n"))
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"text","text":"prompt"}]}}` + "\n{\"type\":\"system\",\"subtype\":\"compact_boundary\"}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		type result struct {
			facts *transcript.Facts
			err   error
		}
		done := make(chan result, 1)
		go func() {
			facts, err := ReadAt(context.Background(), bytes.NewReader(data), int64(len(data)), transcript.Options{Budget: 1 << 20, MaxLine: 1 << 16})
			done <- result{facts, err}
		}()
		var facts *transcript.Facts
		select {
		case r := <-done:
			if r.err != nil {
				t.Fatal(r.err)
			}
			facts = r.facts
		case <-time.After(2 * time.Second):
			t.Fatalf("Read hangs on %d bytes: %q", len(data), data[:min(len(data), 300)])
		}
		if len(facts.Texts) > 3 {
			t.Fatalf("%d texts", len(facts.Texts))
		}
		all := append([]string{facts.LastPrompt, facts.PreviousPrompt}, facts.Texts...)
		all = append(append(all, facts.FollowUps...), facts.FilesTouched...)
		for _, list := range [][]transcript.Todo{facts.Todos, facts.Tasks} {
			for _, td := range list {
				all = append(all, td.Content, td.Status)
			}
		}
		if e := facts.OpenError; e != nil {
			all = append(all, e.Tool, e.Input, e.Error)
		}
		for _, s := range all {
			if !utf8.ValidString(s) || strings.ContainsAny(s, "\x1b\x00\r") {
				t.Fatalf("unclean fact %q", s)
			}
			if utf8.RuneCountInString(s) > max(transcript.LatestRunes, transcript.PromptRunes)+3 && !strings.Contains(strings.Join(facts.FilesTouched, "\n"), s) {
				t.Fatalf("fact of %d runes", utf8.RuneCountInString(s))
			}
		}
	})
}
