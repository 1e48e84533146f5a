package attributes

import "testing"

func TestAttributeLinesParseAsGitParsesThem(t *testing.T) {
	tests := []struct {
		name, line string
		macros     bool
		want       string // pattern or [macro], then assignments; "" for a dropped line
	}{
		{"plain", "*.txt text eol=crlf", false, "*.txt text=set eol=crlf"},
		{"unset and unspecified", "a -text !eol", false, "a text=unset eol=unspecified"},
		{"blanks and CR", "  a\ttext\r", false, "a text=set"},
		{"comment", "# *.txt text", false, ""},
		{"quoted pattern", `"a b\t\101.txt" text`, false, "a b\tA.txt text=set"},
		{"bad quote reads as a word", `"a text`, false, `"a text=set`},
		{"invalid name drops the line", "a text b@d", false, ""},
		{"reserved name drops the line", "a builtin_objectmode", false, ""},
		{"negative pattern dropped", "!a text", false, ""},
		{"macro where allowed", "[attr]dos text eol=crlf", true, "[dos] text=set eol=crlf"},
		{"macro not allowed in a subdirectory", "[attr]dos text", false, ""},
		{"[attr] alone is a pattern", "[attr] text", false, "[attr] text=set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, ok := parseAttrLine(tt.line, "", tt.macros, false)
			got := ""
			if ok {
				got = l.pattern.String()
				if l.macro != "" {
					got = "[" + l.macro + "]"
				}
				for _, a := range l.assigns {
					got += " " + a.name + "=" + map[byte]string{Set: "set", Unset: "unset", Unspecified: "unspecified", Valued: a.state.Value}[a.state.Kind]
				}
			}
			if got != tt.want {
				t.Errorf("parseAttrLine(%q) = %q, want %q", tt.line, got, tt.want)
			}
		})
	}
}

func FuzzParseAttributes(f *testing.F) {
	f.Add([]byte("*.txt text eol=crlf\n[attr]dos text eol=crlf\n\"a\\tb\" -diff !merge\n# c\n!neg text\n"), true)
	f.Add([]byte("docs/**/*.md filter=lfs diff=lfs merge=lfs -text\r\n"), false)
	f.Fuzz(func(t *testing.T, b []byte, macros bool) {
		for _, l := range parseAttributes(b, "dir", macros, false) {
			if l.macro != "" && !macros {
				t.Fatalf("macro %q defined where macros are not allowed", l.macro)
			}
			for _, a := range l.assigns {
				if !validAttrName(a.name) {
					t.Fatalf("invalid attribute name %q kept", a.name)
				}
			}
		}
	})
}
