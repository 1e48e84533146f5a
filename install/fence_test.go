package install

import (
	"os"
	"path/filepath"
	"testing"
)

// A folder beside the project whose name starts like the project's is
// outside it: proj-dotfiles/ is not in proj/.
func TestTheLinkFenceKeepsASiblingFolderThatStartsLikeTheProjectOut(t *testing.T) {
	root := t.TempDir()
	proj, dotfiles := filepath.Join(root, "proj"), filepath.Join(root, "proj-dotfiles")
	os.MkdirAll(filepath.Join(proj, ".claude"), 0o755)
	os.MkdirAll(dotfiles, 0o755)
	os.WriteFile(filepath.Join(dotfiles, "settings.json"), []byte("{}"), 0o644)
	os.Symlink(filepath.Join(dotfiles, "settings.json"), filepath.Join(proj, ".claude", "settings.json"))
	if real, ok := (Fence{Root: proj}).Allows(filepath.Join(proj, ".claude", "settings.json")); ok {
		t.Errorf("a link to %s was allowed", real)
	}
	os.WriteFile(filepath.Join(proj, "inside.json"), []byte("{}"), 0o644)
	if _, ok := (Fence{Root: proj}).Allows(filepath.Join(proj, "inside.json")); !ok {
		t.Errorf("a file inside the project was refused")
	}
}
