package gitdiag

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestRandomIgnorePatternsMatchGit writes random .gitignore patterns and
// random file names (glob characters included) into many directories of
// one repository and compares the untracked files gitdiag finds with
// `git ls-files --others --exclude-standard`. Seeds 4 and 5 mix cases
// under core.ignoreCase.
func TestRandomIgnorePatternsMatchGit(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			f := newFixture(t)
			f.write("README", "r\n")
			f.commit("first")
			f.git("config", "status.showUntrackedFiles", "all")
			letters := "ab"
			if seed > 3 {
				f.git("config", "core.ignoreCase", "true")
				letters = "aAbB"
			}
			rng := rand.New(rand.NewSource(seed))
			word := func(alphabet string, n int) string {
				b := make([]byte, 1+rng.Intn(n))
				for i := range b {
					b[i] = alphabet[rng.Intn(len(alphabet))]
				}
				return string(b)
			}
			for d := 0; d < 60; d++ {
				dir := fmt.Sprintf("c%02d", d)
				var rules []string
				for n := 1 + rng.Intn(3); n > 0; n-- {
					rules = append(rules, word(letters+".*?/[]!-\\ ", 7))
				}
				f.write(dir+"/.gitignore", strings.Join(rules, "\n")+"\n")
				for n := 1 + rng.Intn(4); n > 0; n-- {
					p := dir
					for depth := 1 + rng.Intn(3); depth > 0; depth-- {
						p += "/" + word(letters+".*?[]!-\\", 3)
					}
					if _, err := os.Stat(f.path(p)); err == nil {
						continue // the name is taken by a directory already
					}
					if os.MkdirAll(filepath.Dir(f.path(p)), 0o755) != nil {
						continue // a file where this path needs a directory
					}
					os.WriteFile(f.path(p), []byte("x\n"), 0o644)
				}
			}
			want := strings.Split(strings.TrimSuffix(f.git("ls-files", "-z", "--others", "--exclude-standard"), "\x00"), "\x00")
			_, st := openStatus(t, f.dir, false)
			var got []string
			for _, fs := range st.Files {
				if fs.X == '?' {
					got = append(got, fs.Path)
				}
			}
			sort.Strings(want)
			t.Logf("%d untracked files", len(want))
			compare(t, "untracked files", want, got)
		})
	}
}
