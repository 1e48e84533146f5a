package transcript

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A recovery's markers are found wherever they lie within the budget
// from the file's end, across the chunks it is read in, and not before it.
func TestContainsFindsNeedlesAcrossChunksWithinTheBudget(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	filler := strings.Repeat("x", 64<<10-7) // "split" starts two bytes before the last chunk
	// "early" lies before the budget; "split" straddles a chunk boundary.
	content := "early" + strings.Repeat("y", 200<<10) + "spl" + "it" + filler + "last"
	os.WriteFile(path, []byte(content), 0o600)
	budget := int64(len(content) - 100)
	got, err := Contains(context.Background(), path, []string{"early", "split", "last", "absent"}, budget)
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{false, true, true, false}; !equalBools(got, want) {
		t.Errorf("Contains = %v, want %v", got, want)
	}
}

func TestContainsOfAMissingFileIsAnError(t *testing.T) {
	if _, err := Contains(context.Background(), filepath.Join(t.TempDir(), "none"), []string{"a"}, 1<<20); err == nil {
		t.Error("no error for a missing file")
	}
}

func equalBools(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
