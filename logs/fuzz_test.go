package logs

import (
	"testing"
)

// FuzzFitMarkdown: any markdown is shortened to the budget, and reading a
// snapshot's fields back never fails.
func FuzzFitMarkdown(f *testing.F) {
	f.Add(RenderSnapshot(sampleSnapshot(), LogLimits), uint16(300))
	f.Add("```text\na\nb\n```\n- x\n- y\n> quote\n", uint16(10))
	f.Add("**Session:** `a` **Time:** `bad`\n\n````\n```\n", uint16(200))
	f.Fuzz(func(t *testing.T, src string, budget uint16) {
		b := int(budget)%5000 + 100
		if got := FitMarkdown(src, b); Len(got) > b {
			t.Fatalf("FitMarkdown gave %d characters for a budget of %d", Len(got), b)
		}
		ReadSnapshotInfo([]byte(src))
	})
}
