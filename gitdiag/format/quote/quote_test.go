package quote

import "testing"

func FuzzQuotePath(f *testing.F) {
	for _, s := range []string{"plain.txt", "with space", "tab\there", "quote\"", "ünï", "\x1b[31m", "bad\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		for _, space := range []bool{true, false} {
			q := CStyle(p, space)
			for i := 0; i < len(q); i++ {
				if c := q[i]; c < 0x20 || c >= 0x7f {
					t.Fatalf("CStyle(%q) = %q keeps byte %#x", p, q, c)
				}
			}
		}
	})
}

// With core.quotePath=false a name past ASCII is written as it is; a
// control character, a quote or a backslash still makes it a C string,
// and its other bytes stay raw.
func TestPathQuotesAsCoreQuotePathSays(t *testing.T) {
	for _, tt := range []struct {
		in          string
		fully, want string
	}{
		{"café.txt", `"caf\303\251.txt"`, "café.txt"},
		{"tab\there é", `"tab\there \303\251"`, `"tab\there é"`},
		{"del\x7f", `"del\177"`, `"del\177"`},
		{`a"b`, `"a\"b"`, `"a\"b"`},
	} {
		if got := Path(tt.in, false, true); got != tt.fully {
			t.Errorf("Path(%q, fully) = %s, want %s", tt.in, got, tt.fully)
		}
		if got := Path(tt.in, false, false); got != tt.want {
			t.Errorf("Path(%q, not fully) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
