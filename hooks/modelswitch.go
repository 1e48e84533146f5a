package hooks

import (
	"fmt"

	"github.com/session-hooks/session-hooks/hooks/longrun"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/logs"
)

// handleModelSwitch is PostModelSwitch: with the long-running checks on,
// the context budget was told against the old model's window, and a switch
// (from a 1M model to a 200k one, say) changes what is near its end. It
// says the new window and where the context stands in it, and records the
// thresholds already passed as announced, so that post-tool does not
// repeat them. Without the checks it says nothing.
func handleModelSwitch(r *Run) protocol.Reply {
	if !r.Cfg.Active(r.Project) || r.In.Model == "" {
		return protocol.Reply{}
	}
	c := r.context()
	text := modelSwitchText(r.In.FromModel, r.In.Model, c.Window, r.In.ContextTokens, longrun.ContextLine, c)
	if s := r.session(); s != nil {
		s.SeeModel(r.In.Model)
		if t := r.In.ContextTokens; t != nil {
			s.Announced = passedLevels(longrun.Level(*t, c.Warn, c.Critical, c.Emergency))
		}
		r.saveState(s)
	}
	if text == "" {
		return protocol.Reply{}
	}
	r.ev.Decision = "warn"
	return protocol.AddContext(protocol.PostModelSwitch, text)
}

// modelSwitchText says the new model's window and the context in it.
func modelSwitchText[C any](from, to string, window int, tokens *int, line func(int, C) string, c C) string {
	if window == 0 {
		return ""
	}
	text := fmt.Sprintf("The model is now %s", logs.Code(to))
	if from != "" {
		text += fmt.Sprintf(" (was %s)", logs.Code(from))
	}
	text += fmt.Sprintf(": its context window is %d tokens.", window)
	if tokens != nil {
		text += " Context: " + line(*tokens, c) + "."
	}
	return text
}

// passedLevels are the thresholds at or below level, in order: after a
// switch, those the new window has passed count as announced.
func passedLevels(level string) []string {
	var out []string
	for _, l := range []string{"warn", "critical", "emergency"} {
		if level == "" {
			break
		}
		out = append(out, l)
		if l == level {
			break
		}
	}
	return out
}
