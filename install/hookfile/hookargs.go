package hookfile

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/hooks/eventtable"
)

// HookCall is an entry of ours read as a hook run: which agent, which
// subcommand, and the hook flags it passes. It is all doctor ever gives
// this binary: an entry may come from a cloned repository, so nothing else
// in it (a person command, a file for --config, a word we do not know) is
// passed on.
type HookCall struct {
	Agent   string // "" for the default
	Command string // a hook subcommand of the event table
	Flags   []string
}

// Args are the arguments this binary is run with for the call.
func (c HookCall) Args() []string {
	var out []string
	if c.Agent != "" {
		out = append(out, "--agent", c.Agent)
	}
	return append(append(out, c.Command), c.Flags...)
}

// ParseHookCall reads the words after the first session-hooks program of
// an entry: an optional --agent, one hook subcommand, then only hook flags
// whose values are harmless (a duration, a format). Anything else is an
// error saying what, and the entry is not ours to run.
func ParseHookCall(cmd, custom string) (HookCall, error) {
	if Compound(cmd) {
		return HookCall{}, fmt.Errorf("it runs more than session-hooks (a shell operator)")
	}
	agent, rest, ok := afterOurProgram(cmd, custom)
	if !ok {
		return HookCall{}, fmt.Errorf("it does not run session-hooks")
	}
	var c HookCall
	if agent != "" {
		if !knownAgent(agent) {
			return HookCall{}, fmt.Errorf("--agent %q is not an agent session-hooks knows", agent)
		}
		c.Agent = agent
	}
	if len(rest) == 0 || !slices.Contains(eventtable.Commands(), rest[0]) {
		first := ""
		if len(rest) > 0 {
			first = rest[0]
		}
		return HookCall{}, fmt.Errorf("%q is not a hook subcommand (%s)", first, strings.Join(eventtable.Commands(), ", "))
	}
	c.Command, rest = rest[0], rest[1:]
	for len(rest) > 0 {
		flag, err := hookFlag(&rest, c.Command)
		if err != nil {
			return HookCall{}, err
		}
		c.Flags = append(c.Flags, flag...)
	}
	return c, nil
}

// ProgramOf is the word of an entry that runs session-hooks, as the
// shell gives it to exec (quotes removed, variables as written); "" when
// none does.
func ProgramOf(cmd, custom string) string {
	words := shellWords(cmd)
	if at := slices.IndexFunc(words, func(w string) bool { return isOurProgram(w, custom) }); at >= 0 {
		return words[at]
	}
	return ""
}

// afterOurProgram reads the words after the first session-hooks program of
// an entry: the --agent given there ("" when none) and the rest, from the
// subcommand on; ok is false when no word runs session-hooks. Only the
// first such word counts: "session-hooks install … session-hooks init" is
// a person command.
func afterOurProgram(cmd, custom string) (agent string, rest []string, ok bool) {
	words := shellWords(cmd)
	at := slices.IndexFunc(words, func(w string) bool { return isOurProgram(w, custom) })
	if at < 0 {
		return "", nil, false
	}
	rest = words[at+1:]
	if len(rest) > 0 {
		agent, _ = flagValue(&rest, "agent")
	}
	return agent, rest, true
}

// hookFlag takes one flag of the subcommand off words and returns it as
// it will be passed on.
func hookFlag(words *[]string, command string) ([]string, error) {
	w := (*words)[0]
	name := strings.TrimPrefix(w, "--")
	switch {
	case name == w:
	case slices.Contains(eventtable.Flags(command), name), name == "dry-run", name == "no-log":
		*words = (*words)[1:]
		return []string{w}, nil
	case name == "timeout" || strings.HasPrefix(name, "timeout="):
		v, _ := flagValue(words, "timeout")
		if d, err := time.ParseDuration(v); err != nil || d <= 0 {
			return nil, fmt.Errorf("--timeout %q is not a duration", v)
		}
		return []string{"--timeout", v}, nil
	case name == "format" || strings.HasPrefix(name, "format="):
		v, _ := flagValue(words, "format")
		if v != "json" && v != "markdown" {
			return nil, fmt.Errorf("--format %q is not json or markdown", v)
		}
		return []string{"--format", v}, nil
	}
	return nil, fmt.Errorf("%q is not a flag doctor passes to %s (only its own flags, --timeout, --format, --dry-run and --no-log)", w, command)
}

// flagValue takes --name VALUE or --name=VALUE off the front of words.
func flagValue(words *[]string, name string) (string, bool) {
	w := (*words)[0]
	if v, ok := strings.CutPrefix(w, "--"+name+"="); ok {
		*words = (*words)[1:]
		return v, true
	}
	if w != "--"+name {
		return "", false
	}
	if len(*words) < 2 {
		*words = (*words)[1:]
		return "", true
	}
	v := (*words)[1]
	*words = (*words)[2:]
	return v, true
}
