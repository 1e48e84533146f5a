package transcript

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRequestKeepsAShortRequestWholeAndCleaned(t *testing.T) {
	got := Request("  fix the parser\nthen commit\x1b \n")
	if strings.ContainsRune(got, 0x1b) || !strings.HasPrefix(got, "fix the parser\nthen commit") || strings.HasSuffix(got, "\n") {
		t.Errorf("Request = %q, want the request with its line break, trimmed, without the escape", got)
	}
}

func TestRequestKeepsTheBeginningAndTheEndOfALongOne(t *testing.T) {
	long := "START " + strings.Repeat("log line ", RequestRunes) + " please fix the END"
	got := Request(long)
	if n := utf8.RuneCountInString(got); n > RequestRunes+100 {
		t.Errorf("%d runes, over %d", n, RequestRunes)
	}
	if !strings.HasPrefix(got, "START") || !strings.HasSuffix(got, "the END") {
		t.Errorf("Request lost its beginning or its end: %.80q ... %.80q", got, got[len(got)-80:])
	}
}

func TestOpenTailStartsBudgetBytesBeforeTheEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	os.WriteFile(path, []byte("0123456789"), 0o600)
	for _, tc := range []struct {
		budget int64
		start  int64
		rest   string
	}{{4, 6, "6789"}, {10, 0, "0123456789"}, {100, 0, "0123456789"}} {
		f, start, err := OpenTail(path, tc.budget)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(f)
		f.Close()
		if start != tc.start || string(b) != tc.rest {
			t.Errorf("OpenTail(%d) = %d, %q; want %d, %q", tc.budget, start, b, tc.start, tc.rest)
		}
	}
}

func TestOpenSaysTheSizeAndRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.jsonl")
	os.WriteFile(path, []byte("abc"), 0o600)
	f, size, err := Open(path)
	if err != nil || size != 3 {
		t.Fatalf("Open = %d, %v; want 3, nil", size, err)
	}
	f.Close()
	if _, _, err := Open(""); err == nil || !strings.Contains(err.Error(), "no transcript path") {
		t.Errorf("Open(\"\") = %v, want the missing path said", err)
	}
	if _, _, err := Open(dir); err == nil {
		t.Error("Open opened a directory")
	}
	if _, _, err := OpenTail(filepath.Join(dir, "missing"), 10); err == nil {
		t.Error("OpenTail opened a missing file")
	}
}

func TestEachLineSkipsAndCountsTheLinesOverTheBound(t *testing.T) {
	in := "short\n" + strings.Repeat("x", 26) + "\nexactly ten\n\nlast without newline"
	var got []string
	oversized, err := EachLine(context.Background(), strings.NewReader(in), 25, func(b []byte) { got = append(got, string(b)) })
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"short", "exactly ten", "", "last without newline"} // an empty line is a line
	if oversized != 1 || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("EachLine = %q, %d oversized; want %q, 1", got, oversized, want)
	}
}

func TestEachLineReadsLinesLongerThanItsBuffer(t *testing.T) {
	long := strings.Repeat("y", 200<<10)
	var got []string
	oversized, err := EachLine(context.Background(), strings.NewReader(long+"\nz\n"), 300<<10, func(b []byte) { got = append(got, string(b)) })
	if err != nil || oversized != 0 || len(got) != 2 || got[0] != long || got[1] != "z" {
		t.Errorf("EachLine over a 200 KiB line: %d lines, %d oversized, %v", len(got), oversized, err)
	}
}

func TestEachLineStopsWhenTheContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n := 0
	if _, err := EachLine(ctx, strings.NewReader("a\nb\n"), 10, func([]byte) { n++ }); err == nil || n != 0 {
		t.Errorf("EachLine after the context ended read %d lines, err %v", n, err)
	}
}

func TestTerseRequestsMeanLittleAlone(t *testing.T) {
	for s, want := range map[string]bool{"go on": true, "yes": true, "3": true, "yes go on": true, "do it now please": false,
		"fix the parser so that the tests pass": false, strings.Repeat("a", 21): false, strings.Repeat("a", 20): true} {
		if got := Terse(s); got != want {
			t.Errorf("Terse(%q) = %v, want %v", s, got, want)
		}
	}
}

// ReadForward reads the whole lines within the budget, oldest first, and
// says what it did not read.
func TestReadForwardSkipsTheCutLineAndSaysWhatItDidNotRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	os.WriteFile(path, []byte("first line\n"+strings.Repeat("x", 40)+"\nsecond\nthird\n"), 0o600)
	var got []string
	notes, err := ReadForward(context.Background(), path, Options{Budget: 3 << 20, MaxLine: 20}, "rollout", func(b []byte) { got = append(got, string(b)) })
	if err != nil || strings.Join(got, "|") != "first line|second|third" || len(notes) != 1 || notes[0] != "1 rollout line(s) over 0 MiB were skipped" {
		t.Errorf("whole file: %q, notes %q, %v", got, notes, err)
	}
	got = nil
	notes, err = ReadForward(context.Background(), path, Options{Budget: int64(len("ond\nthird\n")), MaxLine: 20}, "rollout", func(b []byte) { got = append(got, string(b)) })
	if err != nil || strings.Join(got, "|") != "third" || len(notes) != 1 || !strings.HasPrefix(notes[0], "only the last 0 MiB of the rollout were read") {
		t.Errorf("the tail: %q, notes %q, %v", got, notes, err)
	}
	if _, err := ReadForward(context.Background(), filepath.Join(t.TempDir(), "missing"), DefaultOptions, "rollout", func([]byte) {}); err == nil {
		t.Error("a missing file read without an error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadForward(ctx, path, DefaultOptions, "rollout", func([]byte) {}); err == nil {
		t.Error("a read after the context ended did not fail")
	}
}

func TestAHoldReasonIsKnownByItsHeading(t *testing.T) {
	for in, want := range map[string]bool{
		HoldHeading + "\n- commit": true, "  " + HoldHeading: true,
		"Before you stop, run the tests": false, "x " + HoldHeading: false, "": false,
	} {
		if got := IsHoldReason(in); got != want {
			t.Errorf("IsHoldReason(%q) = %v", in, got)
		}
	}
}

func TestATerseRequestKeepsTheOneThatSetTheWork(t *testing.T) {
	for _, tt := range []struct {
		name     string
		requests []string
		want     string
	}{
		{"none", nil, ""},
		{"one alone", []string{"go on"}, ""},
		{"the last means something alone", []string{"Rename the lexer package to scanner", "Now fix the parser tests"}, ""},
		{"one terse after it", []string{"Rename the lexer package to scanner", "go on"}, "Rename the lexer package to scanner"},
		{"two terse after it", []string{"Rename the lexer package to scanner", "go on", "what next?"}, "Rename the lexer package to scanner"},
		{"the newest that is not terse", []string{"Rename the lexer package to scanner", "Then fix the parser tests", "yes", "continue"}, "Then fix the parser tests"},
		{"all terse: the one just before", []string{"hi", "go on", "yes"}, "go on"},
	} {
		var q Requests
		for _, r := range tt.requests {
			q.Add(r)
		}
		if got := q.Previous(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestExcerptsKeepTheNewestLongest(t *testing.T) {
	long := strings.Repeat("x", LatestRunes+10)
	got := Excerpts([]string{long, long})
	if len([]rune(got[0])) > ExcerptRunes+10 || len([]rune(got[1])) <= ExcerptRunes+10 || len(Excerpts(nil)) != 0 {
		t.Errorf("%d and %d runes", len([]rune(got[0])), len([]rune(got[1])))
	}
}
