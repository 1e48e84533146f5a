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
