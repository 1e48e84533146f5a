package hooks

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/session-hooks/session-hooks/internal/safefile"

	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/hooks/config"
	"github.com/session-hooks/session-hooks/hooks/longrun"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/logs"
)

// handlePostTool is PostToolBatch, or PostToolUse (Write, Edit, MultiEdit,
// Bash) before Claude Code had it: it warns
// the agent when the feature list changed in anything but "passes" since
// HEAD, and announces each context threshold once per session. Otherwise
// it prints nothing: it runs after every tool call.
func handlePostTool(r *Run) protocol.Reply {
	r.checkReceipt()
	if !r.Cfg.Active(r.Project) {
		return protocol.Reply{}
	}
	var edits []string
	if mayEditFiles(r.In) {
		edits = r.featureListEdits()
	}
	tokens, known := r.contextUsage()
	s := r.session()
	var announced []string
	if s != nil {
		announced = s.Announced
	}
	ctx := r.context()
	level, newLevels := newThreshold(tokens, known, ctx, announced)
	warnings := postToolWarnings(edits, level, tokens, ctx, string(r.Cfg.LongRunning.FeatureList))
	if len(newLevels) > 0 && s != nil {
		if !r.Cfg.DryRun { // a dry run announces nothing, so records nothing
			for _, l := range newLevels {
				s.Announce(l)
			}
			r.saveState(s)
			// The state is written before the warning is: announcing a
			// level again later beats announcing it on every call.
			if !r.writeState() {
				warnings = warnings[:len(warnings)-1]
			}
		}
	}
	if len(warnings) == 0 {
		return protocol.Reply{}
	}
	r.ev.Decision = "warn"
	if r.Cfg.DryRun {
		r.writeLog("session-post-tool.md", "# Post-tool (dry run, not shown to the agent)\n\n- "+strings.Join(warnings, "\n- ")+"\n")
		return protocol.Reply{}
	}
	event := protocol.PostToolUse
	if r.In.Event == protocol.PostToolBatch {
		event = protocol.PostToolBatch // one warning for the whole batch
	}
	return protocol.AddContext(event, logs.Cut(strings.Join(warnings, "\n\n"), r.budget()-200))
}

// mayEditFiles says whether the call, or any call of the batch, may have
// changed the feature list.
func mayEditFiles(in protocol.Input) bool {
	names := in.ToolNames
	if in.Event != protocol.PostToolBatch {
		names = []string{in.ToolName}
	}
	for _, n := range names {
		switch n {
		case "Write", "Edit", "MultiEdit", "Bash", "":
			return true
		}
	}
	return false
}

// postToolWarnings words what the agent is told after a tool call.
func postToolWarnings(edits []string, level string, tokens int, ctx config.Context, featureList string) []string {
	var out []string
	if len(edits) > 0 {
		out = append(out, "The feature list was changed beyond `passes` since the last commit: "+
			strings.Join(edits, "; ")+". Only set a feature's `passes` to true once it works; restore the rest ("+
			"git checkout -p -- "+featureList+").")
	}
	if level != "" {
		out = append(out, "Context: "+longrun.ContextLine(tokens, ctx)+".")
	}
	return out
}

// newThreshold is the context level reached that the session has not been
// told of, and the levels to record as announced (a level reached implies
// the ones below it: never warn after critical).
func newThreshold(tokens int, known bool, c config.Context, announced []string) (string, []string) {
	if !known {
		return "", nil
	}
	level := longrun.Level(tokens, c.Warn, c.Critical, c.Emergency)
	if level == "" || slices.Contains(announced, level) {
		return "", nil
	}
	var record []string
	for _, l := range []string{"warn", "critical", "emergency"} {
		if !slices.Contains(announced, l) {
			record = append(record, l)
		}
		if l == level {
			break
		}
	}
	return level, record
}

// featureListEdits compares the feature list with its version at HEAD.
func (r *Run) featureListEdits() []string {
	list := r.Cfg.LongRunning.FeatureList
	path := filepath.Join(r.Project, filepath.FromSlash(string(list)))
	now, ok := within(r, "reading the feature list", func() []byte {
		b, _ := safefile.ReadIn(r.Project, list, longrun.MaxListSize)
		return b
	})
	if !ok || now == nil {
		return nil
	}
	atHEAD, _ := gitdiag.Within(r.Ctx, r.Git, func(repo *gitdiag.Repo) ([]byte, error) {
		rel, err := filepath.Rel(repo.Root, path)
		if err != nil || repo.Bare {
			return nil, err
		}
		b, ok, err := repo.FileAtHEAD(filepath.ToSlash(rel), longrun.MaxListSize)
		if !ok {
			return nil, err
		}
		return b, err
	})
	if atHEAD == nil {
		return nil // not committed yet: nothing to hold it to
	}
	return longrun.EditsBeyondPasses(atHEAD, now)
}
