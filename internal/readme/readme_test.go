package readme

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type recorder struct {
	testing.TB
	failed, fatal string
}

func (r *recorder) Helper()                        {}
func (r *recorder) Errorf(format string, a ...any) { r.failed = format }
func (r *recorder) Fatalf(format string, a ...any) { r.fatal = format }
func (r *recorder) Fatal(a ...any)                 { r.fatal = "fatal" }

// readmeWith is a README in a test's own directory holding text.
func readmeWith(t *testing.T, text string) string {
	path := filepath.Join(t.TempDir(), "README.md")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCheckBlockComparesAndRewritesOnlyWhenAsked(t *testing.T) {
	path := readmeWith(t, "intro\n<!-- t -->\nold\n<!-- end of t -->\nafter\n")
	r := &recorder{TB: t}
	CheckBlock(r, path, "t", "old\n", "how")
	if r.failed != "" || r.fatal != "" {
		t.Errorf("an equal block failed: %q %q", r.failed, r.fatal)
	}
	CheckBlock(r, path, "t", "new\n", "how")
	if r.failed == "" {
		t.Error("a different block passed")
	}
	t.Setenv("UPDATE_README", "1")
	r = &recorder{TB: t}
	CheckBlock(r, path, "t", "new\n", "how")
	if b, _ := os.ReadFile(path); string(b) != "intro\n<!-- t -->\nnew\n<!-- end of t -->\nafter\n" || r.failed != "" {
		t.Errorf("rewritten as %q (%q)", b, r.failed)
	}
	r = &recorder{TB: t}
	CheckBlock(r, path, "missing", "x", "how")
	if !strings.Contains(r.fatal, "has no") {
		t.Errorf("a missing block: %q", r.fatal)
	}
}

// A block may open the file.
func TestCheckBlockAtTheFilesStart(t *testing.T) {
	path := readmeWith(t, "<!-- t -->\nold\n<!-- end of t -->\n")
	r := &recorder{TB: t}
	CheckBlock(r, path, "t", "old\n", "how")
	if r.failed != "" || r.fatal != "" {
		t.Errorf("a block at the start: %q %q", r.failed, r.fatal)
	}
}
