package hookfile

import (
	"slices"
	"strings"
	"testing"
)

func TestDoctorPassesOnlyAHookSubcommandAndHookFlags(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		args []string
	}{
		{"session-hooks init", []string{"init"}},
		{`"$CLAUDE_PROJECT_DIR"/bin/session-hooks init --compact-recovery`, []string{"init", "--compact-recovery"}},
		{`"${CLAUDE_PLUGIN_ROOT}/bin/session-hooks-bridge" end`, []string{"end"}},
		{"env SESSION_HOOKS_TIMEOUT=2s session-hooks end --timeout 800ms", []string{"end", "--timeout", "800ms"}},
		{"session-hooks --agent=gemini pre-compact --format=json --dry-run --no-log", []string{"--agent", "gemini", "pre-compact", "--format", "json", "--dry-run", "--no-log"}},
		{"session-hooks --agent codex init --timeout=5s", []string{"--agent", "codex", "init", "--timeout", "5s"}},
	} {
		c, err := ParseHookCall(tt.cmd, "")
		if err != nil || !slices.Equal(c.Args(), tt.args) {
			t.Errorf("ParseHookCall(%q) = %q, %v; want %q", tt.cmd, c.Args(), err, tt.args)
		}
	}
}

func TestDoctorRefusesAnEntryThatNamesAPersonCommandOrAFile(t *testing.T) {
	for cmd, why := range map[string]string{
		"session-hooks install --scope user --command 'touch x' session-hooks init": `"install" is not a hook subcommand`,
		"session-hooks uninstall --scope user init":                                 `"uninstall" is not a hook subcommand`,
		"session-hooks-bridge --agent gemini install --scope user":                  `"install" is not a hook subcommand`,
		"session-hooks --agent codex doctor":                                        `"doctor" is not a hook subcommand`,
		"session-hooks init --config /home/u/.netrc":                                `"--config" is not a flag`,
		"session-hooks init --config=../other/.claude/session-hooks.json":           `"--config=../other/.claude/session-hooks.json" is not a flag`,
		"session-hooks init install":                                                `"install" is not a flag`,
		"session-hooks init --timeout 'x; y'":                                       "shell operator",
		"session-hooks init --timeout soon":                                         `--timeout "soon" is not a duration`,
		"session-hooks init --timeout 0s":                                           `--timeout "0s" is not a duration`,
		"session-hooks init --format html":                                          `--format "html" is not json or markdown`,
		"session-hooks --agent ../../x init":                                        `--agent "../../x" is not an agent`,
		"session-hooks":                                                             `"" is not a hook subcommand`,
		"other-tool init":                                                           "does not run session-hooks",
	} {
		if _, err := ParseHookCall(cmd, ""); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("ParseHookCall(%q) = %v, want %q", cmd, err, why)
		}
	}
}

// Before the registry registers its clients, an entry naming any client
// by --agent is that client's, on its own events (the registry's tests
// hold the default's entries to the contract's events).
func TestAnEntryNamingAClientIsOursOnItsOwnEvents(t *testing.T) {
	for _, tt := range []struct {
		event, cmd string
		ours       bool
	}{
		{"BeforeAgent", "session-hooks --agent gemini init --compact-recovery", true},
		{"PreCompress", "session-hooks --agent=gemini pre-compact", true},
		{"UserPromptSubmit", "session-hooks init", false},
		{"SessionStart", "session-hooks init", true},
	} {
		if got := IsOurs(tt.event, tt.cmd, ""); got != tt.ours {
			t.Errorf("IsOurs(%s, %q) = %v", tt.event, tt.cmd, got)
		}
	}
}

func TestAPersonCommandBeforeAHookSubcommandIsNotOurEntry(t *testing.T) {
	for _, cmd := range []string{
		"session-hooks install --scope user --command x session-hooks init",
		"session-hooks uninstall --scope user session-hooks end",
		"session-hooks --agent gemini install session-hooks init",
	} {
		if IsOurs("", cmd, "") {
			t.Errorf("IsOurs(%q) = true", cmd)
		}
	}
}
