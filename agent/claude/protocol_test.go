package claude

import "testing"

func TestContextWindowOfTheModelsClaudeCodeNames(t *testing.T) {
	for model, want := range map[string]int{"claude-opus-5-5": 1_000_000, "claude-sonnet-5": 1_000_000,
		"claude-sonnet-4-5-20250929[1m]": 1_000_000, "claude-opus-4-1-20250805": 200_000, "claude-haiku-4-5": 200_000,
		"": 0, "gpt-5": 0} {
		if got := ContextWindow(model, noEnv); got != want {
			t.Errorf("ContextWindow(%q) = %d, want %d", model, got, want)
		}
	}
}

func noEnv(string) string { return "" }

func TestDisabling1MContextHoldsEveryModelAt200k(t *testing.T) {
	for _, v := range []struct {
		value string
		want  int
	}{{"1", 200_000}, {"true", 200_000}, {"0", 1_000_000}, {"false", 1_000_000}, {"", 1_000_000}} {
		env := func(k string) string {
			if k == EnvDisable1M {
				return v.value
			}
			return ""
		}
		for _, model := range []string{"claude-opus-5-5", "claude-sonnet-4-5[1m]"} {
			if got := ContextWindow(model, env); got != v.want {
				t.Errorf("%s=%q, %s: %d, want %d", EnvDisable1M, v.value, model, got, v.want)
			}
		}
	}
}

func TestExecFormFromTheVersionClaudePrints(t *testing.T) {
	for out, want := range map[string]bool{
		"2.1.330 (Claude Code)\n":   true,
		"2.1.331 (Claude Code)":     true,
		"2.2.0":                     true,
		"3.0.1 (Claude Code)":       true,
		"2.1.329 (Claude Code)":     false,
		"1.0.128 (Claude Code)":     false,
		"":                          false,
		"claude: command not found": false,
	} {
		if got := RunsExecForm(out); got != want {
			t.Errorf("RunsExecForm(%q) = %v", out, got)
		}
	}
}
