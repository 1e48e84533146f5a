package gitdiag

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/session-hooks/session-hooks/gitdiag/format/index"
)

// FuzzTrackedTree: a damaged index may be unsorted or hold odd names
// (empty, "a//b", a file and a directory of one name, conflict stages);
// the walk's tree of it must still build.
func FuzzTrackedTree(f *testing.F) {
	f.Add("a\na/b\na.c\n\nx//y\nc:1\nc:3\n/lead\ntrail/")
	f.Fuzz(func(t *testing.T, names string) {
		var entries []*index.Entry
		for _, n := range strings.Split(names, "\n") {
			e := &index.Entry{Name: n}
			if p, stage, ok := strings.Cut(n, ":"); ok && stage != "" {
				e.Name, e.Stage = p, int(stage[0]%4)
			}
			entries = append(entries, e)
		}
		buildTrackedTree(trackEntries(entries))
	})
}

func FuzzCleanLineEndings(f *testing.F) {
	f.Add([]byte("a\r\nb\r\n"), byte(crlfAuto), false)
	f.Add([]byte("a\rb\x00\r\n"), byte(crlfText), true)
	f.Add([]byte("$Id: x $\r\n"), byte(crlfText), false)
	f.Fuzz(func(t *testing.T, content []byte, action byte, indexCRLF bool) {
		c := cleanRules{crlf: crlfAction(action % 3), ident: action&4 != 0}
		out := c.clean(content, func() bool { return indexCRLF })
		if c.crlf != crlfBinary && !indexCRLF && gatherStats(out).crlf > 0 && !gatherStats(content).binary() {
			t.Fatalf("CRLF left in converted text: %q → %q", content, out)
		}
		if len(out) > len(content) {
			t.Fatalf("cleaning grew %q to %q", content, out)
		}
	})
}

// FuzzSubject: whatever a commit message holds, its subject is one clean
// line of valid UTF-8.
func FuzzSubject(f *testing.F) {
	f.Add("subject\n\nbody\n")
	f.Add("\x1b[31mred\x00 \xff bytes")
	f.Fuzz(func(t *testing.T, msg string) {
		s := subject(msg)
		if !utf8.ValidString(s) || strings.ContainsAny(s, "\x1b\n\x00") {
			t.Fatalf("subject %q", s)
		}
	})
}
