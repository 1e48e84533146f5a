package hookfile

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/install/jsonedit"
)

// The dry run's diff is one patch(1) applies: applied to the settings as
// they are, it gives what install would write, for every golden file.
func TestUnifiedDiffIsAPatchThatGivesTheInstalledFile(t *testing.T) {
	if _, err := exec.LookPath("patch"); err != nil {
		t.Fatalf("patch(1) is the oracle here: %v", err)
	}
	inputs, _ := filepath.Glob("testdata/golden/*.json")
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			old, _ := os.ReadFile(in)
			want, _ := os.ReadFile(strings.TrimSuffix(in, ".json") + ".installed")
			work := filepath.Join(t.TempDir(), "settings.json")
			os.WriteFile(work, old, 0o644)
			cmd := exec.Command("patch", "--quiet", "--force", work)
			cmd.Stdin = strings.NewReader(jsonedit.UnifiedDiff(work, old, want))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("patch refused the diff: %v\n%s\n%s", err, out, jsonedit.UnifiedDiff(work, old, want))
			}
			if got, _ := os.ReadFile(work); !bytes.Equal(got, want) {
				t.Errorf("patched:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
