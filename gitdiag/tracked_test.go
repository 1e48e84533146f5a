package gitdiag

import (
	"fmt"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/gitdiag/format/index"
)

// describe prints a tracked tree as "name" for files, "name/{...}" for
// directories, "name!" for conflicts, in the children's order.
func describe(d *trackedDir) string {
	var parts []string
	for _, c := range d.children {
		s := c.name
		if c.unmerged {
			s += "!"
		}
		if c.dir != nil {
			s += fmt.Sprintf("/{%s}", describe(c.dir))
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func TestTrackedTreeSortsChildrenByName(t *testing.T) {
	tests := []struct {
		name    string
		entries []string // "path" or "path:stage"
		want    string
	}{
		{"flat", []string{"a", "b", "c"}, "a b c"},
		{"nested", []string{"a/b/c", "a/d", "e"}, "a/{b/{c} d} e"},
		{"a file sorting before its namesake directory in index order",
			[]string{"a.txt", "a/x", "a0"}, "a/{x} a.txt a0"},
		{"conflict stages are one child", []string{"c:1", "c:2", "c:3", "d"}, "c! d"},
		{"conflict beside a resolved file", []string{"a/b:2", "a/b:3", "a/c"}, "a/{b! c}"},
		{"directories reopened after a sibling", []string{"x/a/1", "x/b/2", "y/a/3"}, "x/{a/{1} b/{2}} y/{a/{3}}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var entries []*index.Entry
			for _, s := range tt.entries {
				e := &index.Entry{Name: s}
				if p, stage, ok := strings.Cut(s, ":"); ok {
					e.Name, e.Stage = p, int(stage[0]-'0')
				}
				entries = append(entries, e)
			}
			if got := describe(buildTrackedTree(trackEntries(entries))); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTrackedTreeCombinesAFileAndDirectoryOfOneName(t *testing.T) {
	// Only a damaged index holds both "a" and "a/b"; the walk must still
	// see the file and the directory.
	file, inner := &index.Entry{Name: "a"}, &index.Entry{Name: "a/b"}
	root := buildTrackedTree(trackEntries([]*index.Entry{file, {Name: "a.c"}, inner}))
	c, next := child(root.children, 0, "a")
	if c.entry.Entry != file || c.dir == nil || c.dir.children[0].entry.Entry != inner {
		t.Fatalf("child a = %+v, want the file and the directory", c)
	}
	if root.children[next].name != "a.c" {
		t.Errorf("search resumes at %q, want a.c", root.children[next].name)
	}
}
