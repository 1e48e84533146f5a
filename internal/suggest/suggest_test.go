package suggest

import "testing"

func TestClosestFindsTyposButNotGuesses(t *testing.T) {
	commands := []string{"init", "install", "status", "doctor", "summary", "uninstall"}
	tests := []struct{ word, want string }{
		{"instal", "install"},
		{"STATSU", "status"},
		{"docter", "doctor"},
		{"unistall", "uninstall"},
		{"frobnicate", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Closest(tt.word, commands); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}
