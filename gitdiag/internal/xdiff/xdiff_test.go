package xdiff

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// numstat is git's count for two files: `git diff --no-index --numstat`.
func numstat(t *testing.T, a, b []byte, algorithm string) (int, int) {
	t.Helper()
	dir := t.TempDir()
	pa, pb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(pa, a, 0o644)
	os.WriteFile(pb, b, 0o644)
	cmd := exec.Command("git", "-c", "diff.algorithm="+algorithm, "diff", "--no-index", "--numstat", pa, pb)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	out, _ := cmd.Output() // exit 1: the files differ
	f := strings.Fields(string(out))
	if len(f) < 2 {
		if string(a) == string(b) {
			return 0, 0
		}
		t.Fatalf("git printed %q", out)
	}
	add, _ := strconv.Atoi(f[0])
	del, _ := strconv.Atoi(f[1])
	return add, del
}

// randomText makes lines from a small vocabulary, so that lines repeat
// (which the cleanup's heuristics are about), some without a newline at
// the end.
func randomText(r *rand.Rand, lines, vocab int) []byte {
	var b strings.Builder
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&b, "line %d\n", r.IntN(vocab))
	}
	s := b.String()
	if r.IntN(4) == 0 && len(s) > 0 {
		s = s[:len(s)-1]
	}
	return []byte(s)
}

// edit changes a text as people do: lines replaced, inserted, deleted,
// blocks moved.
func edit(r *rand.Rand, text []byte, vocab, edits int) []byte {
	lines := strings.SplitAfter(string(text), "\n")
	for e := 0; e < edits && len(lines) > 0; e++ {
		i := r.IntN(len(lines))
		switch r.IntN(4) {
		case 0:
			lines[i] = fmt.Sprintf("line %d\n", r.IntN(vocab))
		case 1:
			lines = append(lines[:i], append([]string{fmt.Sprintf("new %d\n", r.IntN(vocab*2))}, lines[i:]...)...)
		case 2:
			lines = append(lines[:i], lines[i+1:]...)
		case 3:
			n := min(r.IntN(30), len(lines)-i)
			block := append([]string(nil), lines[i:i+n]...)
			lines = append(lines[:i], lines[i+n:]...)
			j := r.IntN(len(lines) + 1)
			lines = append(lines[:j], append(block, lines[j:]...)...)
		}
	}
	return []byte(strings.Join(lines, ""))
}

// Random pairs, small and large, few and many distinct lines, against
// git itself: every count must be git's. SEED=n repeats one run.
func TestCountsAreGitsOnRandomEdits(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is the oracle here:", err)
	}
	seed := uint64(1)
	if s, err := strconv.ParseUint(os.Getenv("SEED"), 10, 64); err == nil {
		seed = s
	}
	r := rand.New(rand.NewPCG(seed, 2))
	shapes := []struct{ lines, vocab, edits int }{
		{10, 5, 3}, {50, 10, 10}, {200, 20, 30}, {300, 300, 20}, {2000, 50, 200}, {3000, 3000, 400}, {5000, 40, 1500},
	}
	for n := 0; n < 120; n++ {
		sh := shapes[n%len(shapes)]
		a := randomText(r, sh.lines, sh.vocab)
		b := edit(r, a, sh.vocab, sh.edits)
		for _, alg := range []struct {
			name   string
			counts func(a, b []byte) (int, int)
		}{{"myers", Counts}, {"minimal", CountsMinimal}} {
			wantAdd, wantDel := numstat(t, a, b, alg.name)
			add, del := alg.counts(a, b)
			if add != wantAdd || del != wantDel {
				t.Errorf("case %d, %s (%d lines, vocabulary %d, %d edits): got +%d -%d, git +%d -%d",
					n, alg.name, sh.lines, sh.vocab, sh.edits, add, del, wantAdd, wantDel)
			}
		}
	}
}

func TestCountsOfSmallCases(t *testing.T) {
	tests := []struct {
		a, b     string
		add, del int
	}{
		{"", "", 0, 0},
		{"", "a\n", 1, 0},
		{"a\n", "", 0, 1},
		{"a\n", "a", 1, 1}, // the newline at the end is part of the line
		{"a\nb\nc\n", "a\nx\nc\n", 1, 1},
		{"a\nb\nc\n", "a\nb\nc\nd\n", 1, 0},
	}
	for _, tt := range tests {
		if add, del := Counts([]byte(tt.a), []byte(tt.b)); add != tt.add || del != tt.del {
			t.Errorf("%q → %q: +%d -%d, want +%d -%d", tt.a, tt.b, add, del, tt.add, tt.del)
		}
	}
}

// Lines are numbered by content in the order they first occur, as a map
// from each line to its class numbers them: equal lines, equal classes,
// whatever the hash table's collisions (a table of 16 slots for 8 lines
// collides often).
func TestClassifyNumbersLinesAsAMapWould(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	words := []string{"a\n", "b\n", "a", "", "\n", "a long line\n", "b\r\n", "\x00\n"}
	for round := range 300 {
		var a, b strings.Builder
		for range rng.IntN(12) {
			a.WriteString(words[rng.IntN(len(words))])
		}
		for range rng.IntN(12) {
			b.WriteString(words[rng.IntN(len(words))])
		}
		f1, f2, on1, on2 := classify([]byte(a.String()), []byte(b.String()))
		ids := map[string]int{}
		want1, want2 := map[int]int{}, map[int]int{}
		check := func(data string, f *file, on map[int]int) {
			for i, line := range strings.SplitAfter(data, "\n") {
				if line == "" {
					continue
				}
				id, ok := ids[line]
				if !ok {
					id = len(ids)
					ids[line] = id
				}
				on[id]++
				if i >= len(f.class) || f.class[i] != id {
					t.Fatalf("round %d: %q line %d has class %v, want %d", round, data, i, f.class, id)
				}
			}
		}
		check(a.String(), f1, want1)
		check(b.String(), f2, want2)
		if len(on1) != len(ids) || len(on2) != len(ids) {
			t.Fatalf("round %d: %d and %d counts for %d classes", round, len(on1), len(on2), len(ids))
		}
		for _, id := range ids {
			if on1[id] != want1[id] || on2[id] != want2[id] {
				t.Fatalf("round %d: class %d occurs %d and %d times, want %d and %d", round, id, on1[id], on2[id], want1[id], want2[id])
			}
		}
	}
}
