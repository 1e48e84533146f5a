package longrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

const list = `[
 {"category":"core","description":"Parse the input","steps":["run it","check"],"passes":true},
 {"category":"core","description":"Render the output","steps":["run"],"passes":false},
 {"category":"ui","description":"Show a menu","steps":[],"passes":false},
 {"category":"ui","description":"Save settings","passes":false}
]`

func TestFeaturesCountsAndNextFailingInListOrder(t *testing.T) {
	fs, err := ParseFeatures([]byte(list))
	if err != nil {
		t.Fatal(err)
	}
	if Passing(fs) != 1 || len(fs) != 4 {
		t.Errorf("%d/%d", Passing(fs), len(fs))
	}
	var got []string
	for _, f := range NextFailing(fs, 2) {
		got = append(got, f.Description)
	}
	if !reflect.DeepEqual(got, []string{"Render the output", "Show a menu"}) {
		t.Errorf("next %q", got)
	}
	for _, bad := range []string{`{}`, `[1]`, `[{"x":`} {
		if _, err := ParseFeatures([]byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestEditsBeyondPasses(t *testing.T) {
	flip := strings.Replace(list, `"Render the output","steps":["run"],"passes":false`, `"Render the output","steps":["run"],"passes":true`, 1)
	edit := strings.Replace(list, "Show a menu", "Show a smaller menu", 1)
	steps := strings.Replace(list, `["run it","check"]`, `["run it"]`, 1)
	drop := `[{"category":"core","description":"Parse the input","steps":["run it","check"],"passes":true}]`
	deleteSecond := deleteFeature(t, list, 1)
	addOne := strings.TrimSuffix(strings.TrimSpace(list), "]") + `,{"category":"ui","description":"Undo","steps":["x"],"passes":false}]`
	tests := []struct {
		name, now string
		want      []string
	}{
		{"only passes changed", flip, nil},
		{"a description edited", edit, []string{"feature 3 (`Show a menu`) was edited"}},
		{"a step removed", steps, []string{"feature 1 (`Parse the input`) was edited"}},
		{"features removed", drop, []string{"feature 2 (`Render the output`) was deleted", "feature 3 (`Show a menu`) was deleted", "feature 4 (`Save settings`) was deleted"}},
		{"one feature deleted is one deletion", deleteSecond, []string{"feature 2 (`Render the output`) was deleted"}},
		{"one feature added", addOne, []string{"a feature (`Undo`) was added at 5"}},
		{"broken JSON", `[{`, []string{"the feature list is not a JSON array of features"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EditsBeyondPasses([]byte(list), []byte(tt.now)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLastProgressEntry(t *testing.T) {
	tests := []struct{ name, content, want string }{
		{"the last heading section", "# Progress\n\n## Session 1\nSet up.\n\n## Session 2\nParser done.\n\n- next: renderer\n", "## Session 2\nParser done.\n\n- next: renderer"},
		{"the last paragraph without headings", "Set up the project.\n\nParser done; renderer next.\n", "Parser done; renderer next."},
		{"an empty file", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "claude-progress.txt"), []byte(tt.content), 0o644)
			got, err := LastProgressEntry(dir, "claude-progress.txt", 500)
			if err != nil || got != tt.want {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestLevel(t *testing.T) {
	for tokens, want := range map[int]string{0: "", 99999: "", 100000: "warn", 150000: "critical", 179999: "critical", 180000: "emergency", 900000: "emergency"} {
		if got := Level(tokens, 100000, 150000, 180000); got != want {
			t.Errorf("Level(%d) = %q, want %q", tokens, got, want)
		}
	}
}

func TestStopReasons(t *testing.T) {
	if r := StopReasons(StopFacts{ProgressFile: "p.txt", ProgressTouched: true}); len(r) != 0 {
		t.Errorf("clean state blocked: %q", r)
	}
	r := StopReasons(StopFacts{Uncommitted: []string{" M a.go", "?? b.go", "?? c.go", "?? d.go"}, ProgressFile: "claude-progress.txt",
		MissingRequired: []string{"init.sh"}, Changed: true})
	want := []string{
		"commit your work: 4 uncommitted change(s), starting with `M a.go`, `?? b.go`, `?? c.go`",
		"add an entry to `claude-progress.txt` saying what this session did and what comes next",
		"create the missing required file(s): `init.sh`",
	}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("got %q", r)
	}
}

func TestATurnThatChangedNothingOwesNoProgressEntry(t *testing.T) {
	if r := StopReasons(StopFacts{ProgressFile: "claude-progress.txt", Changed: false}); len(r) != 0 {
		t.Errorf("a read-only turn in a clean tree was asked for %q", r)
	}
	if r := StopReasons(StopFacts{ProgressFile: "claude-progress.txt", Changed: true}); len(r) != 1 {
		t.Errorf("a session that committed owes its entry: %q", r)
	}
}

func TestIgnored(t *testing.T) {
	for path, want := range map[string]bool{".claude/logs/": true, ".claude/": true, ".claude/logs/x.md": true,
		"tmp/out.txt": true, "tmp": true, "src/main.go": false, ".claude/settings.json": false,
		".claude/settings.json.bak": true, ".claude/settings.local.json.bak": true} {
		if got := Ignored(path, []string{"tmp/"}); got != want {
			t.Errorf("Ignored(%q) = %v", path, got)
		}
	}
}

// deleteFeature removes the feature at index i from a JSON list.
func deleteFeature(t *testing.T, list string, i int) string {
	t.Helper()
	var all []json.RawMessage
	if err := json.Unmarshal([]byte(list), &all); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(append(all[:i:i], all[i+1:]...))
	return string(b)
}

func TestComparingLongFeatureListsCostsBoundedMemoryAndSaysABoundedWarning(t *testing.T) {
	list := func(n int, desc string) []byte {
		var b strings.Builder
		b.WriteString("[")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"category":"c","description":"%s %d","steps":[],"passes":false}`, desc, i)
		}
		return []byte(b.String() + "]")
	}
	for name, tt := range map[string]struct {
		atHEAD, now []byte
		lines       int
	}{
		"every feature rewritten":      {list(5000, "old"), list(5000, "new"), maxEdits + 1},
		"one feature changed mid-list": {list(5000, "x"), bytes.Replace(list(5000, "x"), []byte(`"x 2500"`), []byte(`"y"`), 1), 1},
		"empty objects":                {[]byte("[" + strings.Repeat("{},", 4999) + "{}]"), []byte("[" + strings.Repeat("{},", 5000) + "{}]"), 1},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		got := EditsBeyondPasses(tt.atHEAD, tt.now)
		runtime.ReadMemStats(&after)
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
			t.Errorf("%s: %d MB allocated", name, alloc>>20)
		}
		if len(got) != tt.lines {
			t.Errorf("%s: %d lines: %q", name, len(got), got[:min(len(got), 3)])
		}
	}
}

// A feature inserted in the middle of a list too long for the pairing
// table is found as one insertion: the common beginning and end pair
// first, so the table sees only the middle (by position, every feature
// after the insertion would read as edited).
func TestAFeatureInsertedInALongListIsOneAddition(t *testing.T) {
	list := func(n, insertAt, deleteAt int) []byte {
		var out []string
		for i := range n {
			if i == insertAt {
				out = append(out, `{"category":"c","description":"the new one","steps":[],"passes":false}`)
			}
			if i != deleteAt {
				out = append(out, fmt.Sprintf(`{"category":"c","description":"feature %d","steps":[],"passes":false}`, i))
			}
		}
		return []byte("[" + strings.Join(out, ",") + "]")
	}
	// One added and one deleted near either end: without the common
	// beginning, or the common end, paired first, the middle would be too
	// long for the table, and the features between them read as edited.
	for _, tt := range []struct{ insert, delete int }{{5, 10}, {1990, 1995}} {
		got := EditsBeyondPasses(list(2000, -1, -1), list(2000, tt.insert, tt.delete))
		want := []string{fmt.Sprintf("a feature (`the new one`) was added at %d", tt.insert+1), fmt.Sprintf("feature %d (`feature %d`) was deleted", tt.delete+1, tt.delete)}
		slices.Sort(got)
		slices.Sort(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("inserted at %d, deleted at %d: got %q", tt.insert, tt.delete, got[:min(len(got), 4)])
		}
	}
}

// lcsLength is the length of the longest common subsequence by plain
// recursion with a memo: slow, but written apart from the code it checks.
func lcsLength(a, b []Feature) int {
	memo := map[[2]int]int{}
	var f func(i, j int) int
	f = func(i, j int) int {
		if i == len(a) || j == len(b) {
			return 0
		}
		if v, ok := memo[[2]int{i, j}]; ok {
			return v
		}
		v := max(f(i+1, j), f(i, j+1))
		if sameFeature(a[i], b[j]) {
			v = max(v, 1+f(i+1, j+1))
		}
		memo[[2]int{i, j}] = v
		return v
	}
	return f(0, 0)
}

// Every feature the two lists share is paired, in order, whatever the
// edits: a pairing that misses one reports a kept feature as deleted and
// added again. Random lists over a small alphabet make every shape of
// overlap: shared beginnings and ends, moves, repeats.
func TestEveryFeatureTheListsShareIsPairedInOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 37))
	random := func() []Feature {
		fs := make([]Feature, rng.IntN(9))
		for k := range fs {
			fs[k] = Feature{Category: "c", Description: string(rune('a' + rng.IntN(4)))}
		}
		return fs
	}
	for range 3000 {
		a, b := random(), random()
		pairs := commonFeatures(a, b)
		if want := lcsLength(a, b); len(pairs) != want {
			t.Fatalf("%v / %v: %d pairs %v, want %d", a, b, len(pairs), pairs, want)
		}
		for k, p := range pairs {
			if p[0] < 0 || p[0] >= len(a) || p[1] < 0 || p[1] >= len(b) || !sameFeature(a[p[0]], b[p[1]]) ||
				k > 0 && (p[0] <= pairs[k-1][0] || p[1] <= pairs[k-1][1]) {
				t.Fatalf("%v / %v: pairs %v", a, b, pairs)
			}
		}
	}
}

// Lists whose middle fills exactly the pairing table are still paired by
// content; one feature more each and they are paired by position, equal
// features at equal places still pairing.
func TestThePairingTableIsUsedUpToItsBound(t *testing.T) {
	feats := func(n int, first, last string) []Feature {
		fs := []Feature{{Description: first}}
		for k := range n - 2 {
			fs = append(fs, Feature{Description: fmt.Sprint(k)})
		}
		return append(fs, Feature{Description: last})
	}
	shifted := func(n int) ([]Feature, []Feature) {
		// b is a without its first feature, with one added at the end;
		// the first and last features differ, so nothing is trimmed.
		a := feats(n, "gone", "end")
		b := append(slices.Clone(a[1:]), Feature{Description: "new"})
		return a, b
	}
	side := 1023 // (1023+1)² cells: exactly maxPairCells
	if (side+1)*(side+1) != maxPairCells {
		t.Fatalf("the test's side no longer fills the table")
	}
	a, b := shifted(side)
	if got := commonFeatures(a, b); len(got) != side-1 {
		t.Errorf("a middle that fills the table: %d pairs, want %d", len(got), side-1)
	}
	a, b = shifted(side + 1)
	if got := commonFeatures(a, b); len(got) != 0 {
		t.Errorf("a middle past the table, shifted by one: %d pairs by position, want none", len(got))
	}
	a, b = feats(side+1, "x", "y"), feats(side+1, "z", "w")
	if got := commonFeatures(a, b); len(got) != side-1 || got[0] != [2]int{1, 1} {
		t.Errorf("a middle past the table, equal at equal places: %d pairs from %v, want %d from [1 1]", len(got), got[:min(len(got), 1)], side-1)
	}
	for _, n := range [][2]int{{side + 1, side + 50}, {side + 50, side + 1}} {
		a, b = feats(n[0], "x", "y"), feats(n[1], "z", "w")
		if got := commonFeatures(a, b); len(got) != side-1 {
			t.Errorf("lists of %d and %d past the table: %d pairs, want %d", n[0], n[1], len(got), side-1)
		}
	}
}

func TestAnEntryThatIsNotAnObjectIsNamedByItsPlace(t *testing.T) {
	if _, err := ParseFeatures([]byte(`[{"description":"x"},2]`)); err == nil || err.Error() != "entry 2 is not an object" {
		t.Errorf("got %v", err)
	}
	if _, err := ParseFeatures([]byte(`["x"]`)); err == nil || err.Error() != "entry 1 is not an object" {
		t.Errorf("got %v", err)
	}
}

func TestTheLastProgressEntryStartsAtItsOwnLine(t *testing.T) {
	tests := []struct {
		name, content string
		max           int
		want          string
	}{
		{"a heading right after a paragraph's line", "Set up.\n## Session 2\nParser done.\n", 500, "## Session 2\nParser done."},
		{"a heading on the first line", "## Session 1\nSet up.\n", 500, "## Session 1\nSet up."},
		{"a list without headings", "Set up.\n\n- parser done\n- renderer next\n", 500, "- parser done\n- renderer next"},
		{"an entry of exactly the length given", "## Day 1\nok", 11, "## Day 1\nok"},
		{"an entry one character longer", "## Day 1\nok!", 11, "## Day 1\nok…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "p.md"), []byte(tt.content), 0o644)
			got, err := LastProgressEntry(dir, "p.md", tt.max)
			if err != nil || got != tt.want {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
