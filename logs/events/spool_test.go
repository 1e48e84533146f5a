package events

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAFileIsNamedByItsFirstLine(t *testing.T) {
	hash := func(s string) string { sum := sha256.Sum256([]byte(s)); return hex.EncodeToString(sum[:12]) }
	long := strings.Repeat("x", 10<<10)
	huge := strings.Repeat("y", maxHead+100)
	for _, tc := range []struct {
		name, content, want string
	}{
		{"empty", "", ""},
		{"a line not whole yet", "{\"a\":1", ""},
		{"a short line", "first\nsecond\n", hash("first")},
		{"a line past the first read", long + "\nsecond\n", hash(long)},
		{"a line past the bound", huge, hash(huge[:maxHead])},
	} {
		p := filepath.Join(t.TempDir(), "f")
		os.WriteFile(p, []byte(tc.content), 0o600)
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := head(f)
		f.Close()
		if err != nil || got != tc.want {
			t.Errorf("%s: head = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}
