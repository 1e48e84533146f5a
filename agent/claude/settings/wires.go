package settings

import (
	"slices"
	"time"

	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/jsonedit"
)

// PluginHooks is the plugin's hooks/hooks.json: the entries install writes
// by default, each running bridge (the plugin's script) with our
// arguments, laid out as install lays out a new file.
func PluginHooks(bridge string) ([]byte, error) {
	d, err := jsonedit.Parse(nil)
	if err != nil {
		return nil, err
	}
	for _, e := range hookfile.Desired(bridge, false) {
		if err := hookfile.AddEntry(d, e); err != nil {
			return nil, err
		}
	}
	return d.Bytes(), nil
}

// Wires says whether a settings file of any scope wires the entry of ours
// for event with args, as the plugin's bridge asks before running: the
// plugin stands down where settings.json already does the work. A plugin's
// own entries (this plugin's above all) are no settings file: counted,
// the plugin stood down for every event, everywhere.
func Wires(env Env, event string, args []string) bool {
	st, _ := readScopes(env) // no checks: this runs before every plugin hook
	for _, sc := range st.Scopes {
		if isPlugin(sc.Scope) || sc.State != "present" {
			continue
		}
		for _, h := range sc.Hooks {
			if e, ok := hookfile.RowFor(h.Event, h.Command); ok && h.Event == event && slices.Equal(e.Args(), args) &&
				hookfile.IsOurs(h.Event, h.Command, "") && fires(h.Matcher, e.Matcher, event) {
				return true
			}
		}
	}
	return false
}

// matched are what Claude Code compares a matcher with, for the events
// whose matcher it reads: SessionStart's source, PreCompact's trigger.
// Other events run every entry.
var matched = map[string][]string{
	protocol.SessionStart: {protocol.SourceStartup, protocol.SourceResume, protocol.SourceClear, protocol.SourceFork, protocol.SourceCompact},
	protocol.PreCompact:   {protocol.TriggerManual, "auto"},
}

// fires says whether an entry under matcher runs wherever the plugin's
// own entry, under ours, does: only then may the plugin stand down. An
// entry whose matcher never fires ("never", a typo) left the plugin silent
// with nothing running in its place.
func fires(matcher, ours, event string) bool {
	for _, v := range matched[event] {
		if matches(ours, v) && !matches(matcher, v) {
			return false
		}
	}
	return true
}

// WiresWithin is Wires given at most d: it runs before the hook's own
// deadline starts, so a settings file on a dead file system must not hold
// it. Past d the plugin's hook runs (a rare double run beats none).
func WiresWithin(env Env, event string, args []string, d time.Duration) bool {
	ch := make(chan bool, 1)
	go func() { ch <- Wires(env, event, args) }()
	select {
	case w := <-ch:
		return w
	case <-time.After(d):
		return false
	}
}
