package transcript

import (
	"fmt"
	"strings"
	"testing"
)

func TestFilesAreListedOnceNewestLastUpToMaxFiles(t *testing.T) {
	var f Files
	for _, p := range []string{"a", "", "b", "a"} {
		f.Touch(p)
	}
	if got := strings.Join(f.List(), " "); got != "b a" {
		t.Errorf("files = %q", got)
	}
	f.Reset()
	if len(f.List()) != 0 {
		t.Errorf("after a reset: %q", f.List())
	}
	for i := 0; i <= MaxFiles; i++ {
		f.Touch(fmt.Sprint("f", i))
	}
	f.Touch("f0") // dropped once, it is new again
	if l := f.List(); len(l) != MaxFiles || l[0] != "f2" || l[len(l)-1] != "f0" {
		t.Errorf("%d files, %q … %q", len(l), l[0], l[len(l)-1])
	}
}

func TestPatchPathsAreTheEnvelopesFiles(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: a.go\n+x\n*** Update File: b.go \n*** Move to: c.go\n*** Delete File: d.go\n*** End Patch"
	if got := strings.Join(PatchPaths(patch), " "); got != "a.go b.go c.go d.go" {
		t.Errorf("paths = %q", got)
	}
}
