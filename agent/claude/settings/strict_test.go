package settings

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/install/backup"
)

func TestASettingsFileClaudeCodeRefusesIsNamedByItsLine(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"strict JSON is loaded", `{"model": "opus", "hooks": {}}`, ""},
		{"an empty file holds nothing, and is no error", "  \n", ""},
		{"a line comment", "{\n  // mine\n  \"model\": \"opus\"\n}", "line 2: a comment (//)"},
		{"a block comment", "{\"a\": 1 /* x */}", "line 1: a comment (/*)"},
		{"a trailing comma in an object", "{\n\"a\": 1,\n}", "line 2: a trailing comma"},
		{"a trailing comma before a comment and a bracket", "{\"a\": [1, // x\n]}", "line 1: a trailing comma"},
		{"slashes and commas inside strings are text", `{"url": "http://x,", "b": "a,]"}`, ""},
		{"an escaped quote does not end a string", `{"a": "say \"//\"", "b": 1}`, ""},
		{"not JSON at all", "{\"a\": ", "it is not valid JSON"},
		{"a comma at the very end closes nothing", "{\"a\": 1,", "it is not valid JSON"},
		{"a comma before a line comment that runs to the end", "{\"a\": 1, // x", "line 1: a comment (//)"},
		{"a comma before an unterminated block comment", "{\"a\": [1, /* x", "line 1: a comment (/*)"},
		{"a comma, an empty block comment, a bracket", "{\"a\": [1, /**/]}", "line 1: a trailing comma"},
		{"a comma, a comment, then a value: no trailing comma", "{\"a\": [1, /* x */ 2], \"b\": 1 // y\n}", "line 1: a comment (/*)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NotLoaded([]byte(tt.in))
			if tt.want == "" && got != "" || tt.want != "" && !strings.HasPrefix(got, tt.want) {
				t.Errorf("NotLoaded(%q) = %q, want %q…", tt.in, got, tt.want)
			}
		})
	}
}

func TestStrictDropsCommentsAndTrailingCommasAndKeepsTheRest(t *testing.T) {
	in := "{\r\n  // mine\r\n\t\"model\":   \"opus\", // why\r\n  \"list\": [1, 2,],\r\n}\r\n"
	want := "{\r\n\t\"model\":   \"opus\",\r\n  \"list\": [1, 2 ]\r\n}\r\n"
	got, err := Strict([]byte(in))
	if err != nil || string(got) != want {
		t.Fatalf("Strict = %q, %v; want %q", got, err, want)
	}
	if !json.Valid(got) || NotLoaded(got) != "" {
		t.Errorf("not strict JSON: %q", got)
	}
}

func TestOnlyAFileHoldingNothingIsOneUninstallMayRemove(t *testing.T) {
	for doc, want := range map[string]bool{"{}": true, "{\n  \"hooks\": {}\n}\n": true, `{"hooks":{"Stop":[]}}`: false,
		`{"model":"opus"}`: false, "": true} {
		if got := backup.HoldsNothing([]byte(doc)); got != want {
			t.Errorf("backup.HoldsNothing(%q) = %v", doc, got)
		}
	}
}
