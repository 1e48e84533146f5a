// Package completion writes shell completion scripts (bash, zsh, fish)
// for a command line made of subcommands and their long flags. The
// scripts are static: they list the words, so completing never runs the
// binary.
package completion

import (
	"fmt"
	"sort"
	"strings"
)

// Command is one subcommand and its flags (without dashes).
type Command struct {
	Name, Usage string
	Flags       []string
}

// Shells are the shells Script writes for.
var Shells = []string{"bash", "zsh", "fish"}

// Script returns the completion script of program for shell.
func Script(shell, program string, cmds []Command) (string, error) {
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].Name < cmds[j].Name })
	switch shell {
	case "bash":
		return bash(program, cmds), nil
	case "zsh":
		// zsh runs bash completions through bashcompinit.
		return "#compdef " + program + "\nautoload -U +X bashcompinit && bashcompinit\n" + bash(program, cmds), nil
	case "fish":
		return fish(program, cmds), nil
	}
	return "", fmt.Errorf("no completion for %q: use %s", shell, strings.Join(Shells, ", "))
}

func bash(program string, cmds []Command) string {
	fn := "_" + strings.ReplaceAll(program, "-", "_")
	var b strings.Builder
	fmt.Fprintf(&b, "# bash completion for %s; load with: source <(%s completion bash)\n", program, program)
	fmt.Fprintf(&b, "%s() {\n  local cur=\"${COMP_WORDS[COMP_CWORD]}\" words\n  if [ \"$COMP_CWORD\" -eq 1 ]; then\n", fn)
	fmt.Fprintf(&b, "    words=%q\n  else\n    case \"${COMP_WORDS[1]}\" in\n", names(cmds))
	for _, c := range cmds {
		fmt.Fprintf(&b, "      %s) words=%q ;;\n", c.Name, dashed(c.Flags))
	}
	fmt.Fprintf(&b, "    esac\n  fi\n  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n}\ncomplete -F %s %s\n", fn, program)
	return b.String()
}

func fish(program string, cmds []Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# fish completion for %s; load with: %s completion fish | source\n", program, program)
	fmt.Fprintf(&b, "complete -c %s -f\n", program)
	for _, c := range cmds {
		fmt.Fprintf(&b, "complete -c %s -n __fish_use_subcommand -a %s -d %s\n", program, c.Name, fishQuote(c.Usage))
		for _, f := range c.Flags {
			fmt.Fprintf(&b, "complete -c %s -n '__fish_seen_subcommand_from %s' -l %s\n", program, c.Name, f)
		}
	}
	return b.String()
}

func names(cmds []Command) string {
	var out []string
	for _, c := range cmds {
		out = append(out, c.Name)
	}
	return strings.Join(out, " ")
}

func dashed(flags []string) string {
	var out []string
	for _, f := range flags {
		out = append(out, "--"+f)
	}
	return strings.Join(out, " ")
}

func fishQuote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}
