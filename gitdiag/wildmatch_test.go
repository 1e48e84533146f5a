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

// wildmatchCases are the cases of git's t/t3070-wildmatch.sh: text,
// pattern, and whether git's wildmatch matches with WM_PATHNAME (as
// .gitignore patterns holding a slash are matched) and without (as
// basename patterns are).
var wildmatchCases = []struct {
	text, pattern  string
	pathname, flat bool
}{
	{`foo`, `foo`, true, true},
	{`foo`, `bar`, false, false},
	{``, ``, true, true},
	{`foo`, `???`, true, true},
	{`foo`, `??`, false, false},
	{`foo`, `*`, true, true},
	{`foo`, `f*`, true, true},
	{`foo`, `*f`, false, false},
	{`foo`, `*foo*`, true, true},
	{`foobar`, `*ob*a*r*`, true, true},
	{`aaaaaaabababab`, `*ab`, true, true},
	{`foo*`, `foo\*`, true, true},
	{`foobar`, `foo\*bar`, false, false},
	{`f\oo`, `f\\oo`, true, true},
	{`ball`, `*[al]?`, true, true},
	{`ten`, `[ten]`, false, false},
	{`ten`, `**[!te]`, true, true},
	{`ten`, `**[!ten]`, false, false},
	{`ten`, `t[a-g]n`, true, true},
	{`ten`, `t[!a-g]n`, false, false},
	{`ton`, `t[!a-g]n`, true, true},
	{`ton`, `t[^a-g]n`, true, true},
	{`a]b`, `a[]]b`, true, true},
	{`a-b`, `a[]-]b`, true, true},
	{`a]b`, `a[]-]b`, true, true},
	{`aab`, `a[]-]b`, false, false},
	{`aab`, `a[]a-]b`, true, true},
	{`]`, `]`, true, true},
	{`foo/baz/bar`, `foo*bar`, false, true},
	{`foo/baz/bar`, `foo**bar`, false, true},
	{`foobazbar`, `foo**bar`, true, true},
	{`foo/baz/bar`, `foo/**/bar`, true, true},
	{`foo/baz/bar`, `foo/**/**/bar`, true, false},
	{`foo/b/a/z/bar`, `foo/**/bar`, true, true},
	{`foo/b/a/z/bar`, `foo/**/**/bar`, true, true},
	{`foo/bar`, `foo/**/bar`, true, false},
	{`foo/bar`, `foo/**/**/bar`, true, false},
	{`foo/bar`, `foo?bar`, false, true},
	{`foo/bar`, `foo[/]bar`, false, true},
	{`foo/bar`, `foo[^a-z]bar`, false, true},
	{`foo/bar`, `f[^eiu][^eiu][^eiu][^eiu][^eiu]r`, false, true},
	{`foo-bar`, `f[^eiu][^eiu][^eiu][^eiu][^eiu]r`, true, true},
	{`foo`, `**/foo`, true, false},
	{`XXX/foo`, `**/foo`, true, true},
	{`bar/baz/foo`, `**/foo`, true, true},
	{`bar/baz/foo`, `*/foo`, false, true},
	{`foo/bar/baz`, `**/bar*`, false, true},
	{`deep/foo/bar/baz`, `**/bar/*`, true, true},
	{`deep/foo/bar/baz/`, `**/bar/*`, false, true},
	{`deep/foo/bar/baz/`, `**/bar/**`, true, true},
	{`deep/foo/bar`, `**/bar/*`, false, false},
	{`deep/foo/bar/`, `**/bar/**`, true, true},
	{`foo/bar/baz`, `**/bar**`, false, true},
	{`foo/bar/baz/x`, `*/bar/**`, true, true},
	{`deep/foo/bar/baz/x`, `*/bar/**`, false, true},
	{`deep/foo/bar/baz/x`, `**/bar/*/*`, true, true},
	{`acrt`, `a[c-c]st`, false, false},
	{`acrt`, `a[c-c]rt`, true, true},
	{`]`, `[!]-]`, false, false},
	{`a`, `[!]-]`, true, true},
	{``, `\`, false, false},
	{`\`, `\`, false, false},
	{`XXX/\`, `*/\`, false, false},
	{`XXX/\`, `*/\\`, true, true},
	{`foo`, `foo`, true, true},
	{`@foo`, `@foo`, true, true},
	{`foo`, `@foo`, false, false},
	{`[ab]`, `\[ab]`, true, true},
	{`[ab]`, `[[]ab]`, true, true},
	{`[ab]`, `[[:]ab]`, true, true},
	{`[ab]`, `[[::]ab]`, false, false},
	{`[ab]`, `[[:digit]ab]`, true, true},
	{`[ab]`, `[\[:]ab]`, true, true},
	{`?a?b`, `\??\?b`, true, true},
	{`abc`, `\a\b\c`, true, true},
	{`foo`, ``, false, false},
	{`foo/bar/baz/to`, `**/t[o]`, true, true},
	{`a1B`, `[[:alpha:]][[:digit:]][[:upper:]]`, true, true},
	{`a`, `[[:digit:][:upper:][:space:]]`, false, false},
	{`A`, `[[:digit:][:upper:][:space:]]`, true, true},
	{`1`, `[[:digit:][:upper:][:space:]]`, true, true},
	{`1`, `[[:digit:][:upper:][:spaci:]]`, false, false},
	{` `, `[[:digit:][:upper:][:space:]]`, true, true},
	{`.`, `[[:digit:][:upper:][:space:]]`, false, false},
	{`.`, `[[:digit:][:punct:][:space:]]`, true, true},
	{`5`, `[[:xdigit:]]`, true, true},
	{`f`, `[[:xdigit:]]`, true, true},
	{`D`, `[[:xdigit:]]`, true, true},
	{`_`, `[[:alnum:][:alpha:][:blank:][:cntrl:][:digit:][:graph:][:lower:][:print:][:punct:][:space:][:upper:][:xdigit:]]`, true, true},
	{`.`, `[^[:alnum:][:alpha:][:blank:][:cntrl:][:digit:][:lower:][:space:][:upper:][:xdigit:]]`, true, true},
	{`5`, `[a-c[:digit:]x-z]`, true, true},
	{`b`, `[a-c[:digit:]x-z]`, true, true},
	{`y`, `[a-c[:digit:]x-z]`, true, true},
	{`q`, `[a-c[:digit:]x-z]`, false, false},
	{`]`, `[\\-^]`, true, true},
	{`[`, `[\\-^]`, false, false},
	{`-`, `[\-_]`, true, true},
	{`]`, `[\]]`, true, true},
	{`\]`, `[\]]`, false, false},
	{`\`, `[\]]`, false, false},
	{`ab`, `a[]b`, false, false},
	{`a[]b`, `a[]b`, false, false},
	{`ab[`, `ab[`, false, false},
	{`ab`, `[!`, false, false},
	{`ab`, `[-`, false, false},
	{`-`, `[-]`, true, true},
	{`-`, `[a-`, false, false},
	{`-`, `[!a-`, false, false},
	{`-`, `[--A]`, true, true},
	{`5`, `[--A]`, true, true},
	{` `, `[ --]`, true, true},
	{`$`, `[ --]`, true, true},
	{`-`, `[ --]`, true, true},
	{`0`, `[ --]`, false, false},
	{`-`, `[---]`, true, true},
	{`-`, `[------]`, true, true},
	{`j`, `[a-e-n]`, false, false},
	{`-`, `[a-e-n]`, true, true},
	{`a`, `[!------]`, true, true},
	{`[`, `[]-a]`, false, false},
	{`^`, `[]-a]`, true, true},
	{`^`, `[!]-a]`, false, false},
	{`[`, `[!]-a]`, true, true},
	{`^`, `[a^bc]`, true, true},
	{`-b]`, `[a-]b]`, true, true},
	{`\`, `[\]`, false, false},
	{`\`, `[\\]`, true, true},
	{`\`, `[!\\]`, false, false},
	{`G`, `[A-\\]`, true, true},
	{`aaabbb`, `b*a`, false, false},
	{`aabcaa`, `*ba*`, false, false},
	{`,`, `[,]`, true, true},
	{`,`, `[\\,]`, true, true},
	{`\`, `[\\,]`, true, true},
	{`-`, `[,-.]`, true, true},
	{`+`, `[,-.]`, false, false},
	{`-.]`, `[,-.]`, false, false},
	{`2`, `[\1-\3]`, true, true},
	{`3`, `[\1-\3]`, true, true},
	{`4`, `[\1-\3]`, false, false},
	{`\`, `[[-\]]`, true, true},
	{`[`, `[[-\]]`, true, true},
	{`]`, `[[-\]]`, true, true},
	{`-`, `[[-\]]`, false, false},
	{`-adobe-courier-bold-o-normal--12-120-75-75-m-70-iso8859-1`, `-*-*-*-*-*-*-12-*-*-*-m-*-*-*`, true, true},
	{`-adobe-courier-bold-o-normal--12-120-75-75-X-70-iso8859-1`, `-*-*-*-*-*-*-12-*-*-*-m-*-*-*`, false, false},
	{`-adobe-courier-bold-o-normal--12-120-75-75-/-70-iso8859-1`, `-*-*-*-*-*-*-12-*-*-*-m-*-*-*`, false, false},
	{`XXX/adobe/courier/bold/o/normal//12/120/75/75/m/70/iso8859/1`, `XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*`, true, true},
	{`XXX/adobe/courier/bold/o/normal//12/120/75/75/X/70/iso8859/1`, `XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*`, false, false},
	{`abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txt`, `**/*a*b*g*n*t`, true, true},
	{`abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz`, `**/*a*b*g*n*t`, false, false},
	{`foo`, `*/*/*`, false, false},
	{`foo/bar`, `*/*/*`, false, false},
	{`foo/bba/arr`, `*/*/*`, true, true},
	{`foo/bb/aa/rr`, `*/*/*`, false, true},
	{`foo/bb/aa/rr`, `**/**/**`, true, true},
	{`abcXdefXghi`, `*X*i`, true, true},
	{`ab/cXd/efXg/hi`, `*X*i`, false, true},
	{`ab/cXd/efXg/hi`, `*/*X*/*/*i`, true, true},
	{`ab/cXd/efXg/hi`, `**/*X*/**/*i`, true, true},
	{`foo`, `fo`, false, false},
	{`foo/bar`, `foo/bar`, true, true},
	{`foo/bar`, `foo/*`, true, true},
	{`foo/bba/arr`, `foo/*`, false, true},
	{`foo/bba/arr`, `foo/**`, true, true},
	{`foo/bba/arr`, `foo*`, false, true},
	{`foo/bba/arr`, `foo**`, false, true},
	{`foo/bba/arr`, `foo/*arr`, false, true},
	{`foo/bba/arr`, `foo/**arr`, false, true},
	{`foo/bba/arr`, `foo/*z`, false, false},
	{`foo/bba/arr`, `foo/**z`, false, false},
	{`foo/bar`, `foo?bar`, false, true},
	{`foo/bar`, `foo[/]bar`, false, true},
	{`foo/bar`, `foo[^a-z]bar`, false, true},
	{`ab/cXd/efXg/hi`, `*Xg*i`, false, true},
	{`A`, `[A-Z]`, true, true},
	{`a`, `[a-z]`, true, true},
	{`A`, `[[:upper:]]`, true, true},
	{`a`, `[[:lower:]]`, true, true},
	{`a`, `[B-Za]`, true, true},
	{`a`, `[B-a]`, true, true},
	{`Z`, `[Z-y]`, true, true},
	{`a`, `[A-Z]`, false, false},
	{`A`, `[a-z]`, false, false},
	{`z`, `[Z-y]`, false, false},
}

func TestWildmatchPassesGitsOwnCases(t *testing.T) {
	for _, c := range wildmatchCases {
		if got := wildmatch(c.pattern, c.text, true); got != c.pathname {
			t.Errorf("wildmatch(%q, %q, pathname) = %v, want %v", c.pattern, c.text, got, c.pathname)
		}
		if got := wildmatch(c.pattern, c.text, false); got != c.flat {
			t.Errorf("wildmatch(%q, %q) = %v, want %v", c.pattern, c.text, got, c.flat)
		}
	}
}

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
