package completion

import (
	"os/exec"
	"strings"
	"testing"
)

var cmds = []Command{
	{Name: "install", Usage: "wire it in", Flags: []string{"scope", "long-running"}},
	{Name: "init", Usage: "SessionStart", Flags: []string{"timeout"}},
	{Name: "status", Usage: "what's wired", Flags: []string{"format"}},
}

// The bash script completes in a real bash: subcommands first, then the
// flags of the subcommand typed.
func TestBashCompletesCommandsThenTheirFlags(t *testing.T) {
	script, err := Script("bash", "session-hooks", cmds)
	if err != nil {
		t.Fatal(err)
	}
	for line, want := range map[string]string{
		"session-hooks in":          "init install",
		"session-hooks install --s": "--scope",
		"session-hooks status --":   "--format",
		"session-hooks nothing --x": "",
	} {
		words := strings.Fields(line)
		probe := script + "\nCOMP_WORDS=(" + strings.Join(words, " ") + ")\nCOMP_CWORD=" + itoa(len(words)-1) +
			"\n_session_hooks\necho \"${COMPREPLY[*]}\"\n"
		out, err := exec.Command("bash", "-c", probe).Output()
		if err != nil {
			t.Fatalf("bash: %v", err)
		}
		if got := strings.TrimSpace(string(out)); got != want {
			t.Errorf("%q completes to %q, want %q", line, got, want)
		}
	}
}

func TestFishAndZshScripts(t *testing.T) {
	fish, _ := Script("fish", "session-hooks", cmds)
	for _, want := range []string{"-n __fish_use_subcommand -a install -d 'wire it in'",
		"-n '__fish_seen_subcommand_from install' -l long-running", `-d 'what\'s wired'`} {
		if !strings.Contains(fish, want) {
			t.Errorf("fish script lacks %q:\n%s", want, fish)
		}
	}
	zsh, _ := Script("zsh", "session-hooks", cmds)
	if !strings.HasPrefix(zsh, "#compdef session-hooks\n") || !strings.Contains(zsh, "complete -F _session_hooks session-hooks") {
		t.Errorf("zsh script:\n%s", zsh)
	}
	if _, err := exec.LookPath("zsh"); err == nil {
		if out, err := exec.Command("zsh", "-n", "-c", zsh).CombinedOutput(); err != nil {
			t.Errorf("zsh -n: %v %s", err, out)
		}
	}
	if _, err := Script("powershell", "session-hooks", cmds); err == nil || !strings.Contains(err.Error(), "use bash, zsh, fish") {
		t.Errorf("got %v", err)
	}
}

func itoa(n int) string { return string(rune('0' + n)) }
