package ignore

import (
	"strings"
	"testing"
)

func FuzzIgnoreRules(f *testing.F) {
	f.Add([]byte("*.log\n!keep.log\nbuild/\n/root\n**/deep\nfoo/**\n[!a]x\n\\#hash\ntrailing \\ \n"), "src/a.log", true, false)
	f.Add([]byte("\xef\xbb\xbf*.O\r\n[A-Z]*\n"), "x.o", false, true)
	f.Fuzz(func(t *testing.T, content []byte, path string, isDir, fold bool) {
		rules := Rules(nil).WithPatterns(content, "sub", fold)
		dir, name := "sub", path
		if i := strings.LastIndexByte(path, '/'); i >= 0 {
			dir, name = "sub/"+path[:i], path[i+1:]
		}
		rules.Ignored(dir, name, isDir)
	})
}
