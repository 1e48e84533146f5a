package transcript

import (
	"strings"

	"github.com/session-hooks/session-hooks/internal/sanitize"
)

// Files are the files a session wrote since its last compaction, in the
// order of their latest change, each once: the newest MaxFiles are kept.
// Every client's reader keeps them so.
type Files struct {
	list []string
	seen map[string]bool
}

// Touch records the file at path as written now (cleaned; an empty path
// is no file).
func (f *Files) Touch(path string) {
	p := sanitize.Path(path, 500)
	if p == "" {
		return
	}
	if f.seen == nil {
		f.seen = map[string]bool{}
	}
	if f.seen[p] {
		kept := f.list[:0]
		for _, x := range f.list {
			if x != p {
				kept = append(kept, x)
			}
		}
		f.list = kept
	}
	f.seen[p] = true
	f.list = append(f.list, p)
	if len(f.list) > MaxFiles {
		delete(f.seen, f.list[0])
		f.list = f.list[1:]
	}
}

// Reset forgets them: a compaction summarised what was written before.
func (f *Files) Reset() { f.list, f.seen = nil, nil }

// List is the files, the oldest change first.
func (f *Files) List() []string { return f.list }

// PatchPaths are the files an apply_patch envelope adds, updates, deletes
// or moves to.
func PatchPaths(patch string) []string {
	var out []string
	for _, line := range strings.Split(patch, "\n") {
		for _, h := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if p, ok := strings.CutPrefix(line, h); ok {
				out = append(out, strings.TrimSpace(p))
			}
		}
	}
	return out
}
