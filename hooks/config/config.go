// Package config reads a project's optional .claude/session-hooks.json,
// then lets SESSION_HOOKS_* environment variables (and the CLI's flags)
// override it. Every key is optional with a documented default; an unknown
// key or a bad value becomes a note for the hook's output and the default
// is used: a typo in a config file must never break a session.
package config

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/session-hooks/session-hooks/internal/suggest"

	"github.com/session-hooks/session-hooks/internal/safefile"

	"github.com/session-hooks/session-hooks/internal/jsondepth"

	"github.com/tidwall/gjson"
)

// maxConfigSize bounds a configuration file: a few hundred bytes is usual.
const maxConfigSize = 1 << 20

// File is where a project keeps its configuration.
const File = ".claude/session-hooks.json"

// Config is the effective configuration.
type Config struct {
	LongRunning LongRunning
	Context     Context
	// DryRun runs and logs every check, but stop never blocks and
	// post-tool stays silent.
	DryRun bool
	// Checkpoints is how many pre-compaction snapshots are kept in
	// .claude/logs/checkpoints/ (0: none).
	Checkpoints int
	// Output is what a session start injects: "brief" (what Claude Code
	// does not say itself) or "full" (the Node script's text).
	Output string
	// Handoff tells a new session what the previous one left.
	Handoff bool

	// spec is the context settings as written, for ContextFor.
	spec contextSpec
}

// contextSpec is what the file and the environment said of the context:
// whether the window was set, and each threshold as tokens or a share.
type contextSpec struct {
	windowSet bool
	shares    map[string]float64 // "context.warn" → 0.75, for "75%"
	tokens    map[string]int     // "context.warn" → 150000
}

// LongRunning configures the long-running agent checks.
type LongRunning struct {
	// Enabled turns the checks on without a feature list (which then
	// gets the initializer's instructions). With a feature list they are
	// on unless Enabled is explicitly false.
	Enabled *bool
	// Paths inside the project, relative to it (safefile.Rel: a path
	// leading out is refused when the configuration is read).
	FeatureList, ProgressFile, InitScript safefile.Rel
	// InitializerInstructions names a file whose text replaces the
	// built-in instructions for a project without a feature list yet.
	InitializerInstructions safefile.Rel
	// EnforceCleanStop makes stop block while work is unfinished
	// (default true while active).
	EnforceCleanStop bool
	// StopMode is how stop holds the agent back: "block" (its reasons as
	// Stop hook feedback) or "nudge" (the same as added context, which
	// reads as advice).
	StopMode string
	// RequiredFiles must exist before the agent may stop (at most
	// MaxRequiredFiles).
	RequiredFiles []safefile.Rel
	// IgnorePaths are not uncommitted work for stop (.claude/logs/
	// always is): prefixes, a trailing / for a directory.
	IgnorePaths []string
	// NextFeatures is how many failing features init lists.
	NextFeatures int
}

// Context configures the context-usage thresholds, in tokens.
type Context struct {
	Window                    int
	Warn, Critical, Emergency int
}

// Defaults is the configuration of a project without a file.
func Defaults() Config {
	return Config{
		LongRunning: LongRunning{
			FeatureList: "feature_list.json", ProgressFile: "claude-progress.txt", InitScript: "init.sh",
			EnforceCleanStop: true, StopMode: "block", RequiredFiles: []safefile.Rel{"feature_list.json", "claude-progress.txt", "init.sh"},
			NextFeatures: 3,
		},
		Context:     Context{Window: 200000, Warn: 100000, Critical: 150000, Emergency: 180000},
		Checkpoints: 10,
		Output:      "brief",
		Handoff:     true,
	}
}

// Load reads the user's defaults ($XDG_CONFIG_HOME/session-hooks/config.json,
// else ~/.config/session-hooks/config.json), then the project's file (or
// path, when set), then the environment, each overriding the one before.
// The notes say what was ignored and why, naming the file.
func Load(project, path string, getenv func(string) string) (Config, []string) {
	c := Defaults()
	l := loader{c: &c, set: map[string]bool{}}
	if user := UserFile(getenv); user != "" {
		l.file(user, user)
	}
	if path == "" {
		path = getenv("SESSION_HOOKS_CONFIG")
	}
	switch {
	case path == "":
		l.projectFile(project, File)
	case !filepath.IsAbs(path):
		l.projectFile(project, path)
	default:
		l.file(path, path) // named whole by the person or the environment
	}
	l.notes = append(l.notes, c.applyEnv(getenv, l.set)...)
	l.notes = append(l.notes, c.settle(l.set)...)
	return c, l.notes
}

// UserFile is where a user keeps the defaults of every project.
func UserFile(getenv func(string) string) string {
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home := getenv("HOME")
		if home == "" {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "session-hooks", "config.json")
}

// loader applies configuration files in turn, recording which keys were
// set and what was wrong.
type loader struct {
	c     *Config
	set   map[string]bool
	notes []string
}

// file applies one file; shown is its name in notes. A missing file is
// no file.
func (l *loader) file(path, shown string) {
	b, err := safefile.Read(path, maxConfigSize)
	l.apply(b, err, shown)
}

// projectFile applies a file the project holds, read within it: a
// committed .claude linked out of the project names nothing we read.
func (l *loader) projectFile(project, rel string) {
	r, err := safefile.ParseRel(rel)
	var b []byte
	if err == nil {
		b, err = safefile.ReadIn(project, r, maxConfigSize)
	}
	l.apply(b, err, rel)
}

func (l *loader) apply(b []byte, err error, shown string) {
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		l.notes = append(l.notes, fmt.Sprintf("%s not read (%v); using the defaults", shown, err))
	case jsondepth.Check(b, jsondepth.Max) != nil:
		l.notes = append(l.notes, fmt.Sprintf("%s %v; using the defaults", shown, jsondepth.Check(b, jsondepth.Max)))
	case !gjson.ValidBytes(b) || !gjson.ParseBytes(b).IsObject():
		l.notes = append(l.notes, fmt.Sprintf("%s is not a JSON object; using the defaults", shown))
	default:
		l.notes = append(l.notes, l.c.apply(gjson.ParseBytes(b), shown, l.set)...)
	}
}

// Default thresholds, as shares of the context window.
const (
	warnShare      = 0.50
	criticalShare  = 0.75
	emergencyShare = 0.90
)

// settle derives what was left unset from what was set: the thresholds
// from the window, the required files from the files named; and refuses
// thresholds out of order.
func (c *Config) settle(set map[string]bool) []string {
	var notes []string
	shares := map[string]struct {
		v     *int
		share float64
	}{"context.warn": {&c.Context.Warn, warnShare}, "context.critical": {&c.Context.Critical, criticalShare},
		"context.emergency": {&c.Context.Emergency, emergencyShare}}
	for key, t := range shares {
		if !set[key] {
			*t.v = int(t.share * float64(c.Context.Window))
		}
	}
	// The window is known here only when configured: otherwise it is the
	// model's, and ContextFor checks the thresholds against it.
	x := c.Context
	if !(x.Warn < x.Critical && x.Critical < x.Emergency && (x.Emergency <= x.Window || !set["context.window"])) {
		notes = append(notes, fmt.Sprintf("the context thresholds are out of order (warn %d, critical %d, emergency %d, window %d): "+
			"each must be below the next, and emergency at most the window; using 50%%, 75%% and 90%% of the window",
			x.Warn, x.Critical, x.Emergency, x.Window))
		for _, t := range shares {
			*t.v = int(t.share * float64(c.Context.Window))
		}
		c.spec.tokens, c.spec.shares = nil, nil
	}
	if !set["longRunning.requiredFiles"] {
		lr := &c.LongRunning
		lr.RequiredFiles = []safefile.Rel{lr.FeatureList, lr.ProgressFile, lr.InitScript}
	}
	return notes
}

// setter applies one key's value, or says why it cannot.
type setter func(c *Config, v gjson.Result) error

var keys = map[string]setter{
	"longRunning.enabled": func(c *Config, v gjson.Result) error {
		b, err := boolean(v)
		if err == nil {
			c.LongRunning.Enabled = &b
		}
		return err
	},
	"longRunning.featureList":             rel(func(c *Config) *safefile.Rel { return &c.LongRunning.FeatureList }),
	"longRunning.progressFile":            rel(func(c *Config) *safefile.Rel { return &c.LongRunning.ProgressFile }),
	"longRunning.initScript":              rel(func(c *Config) *safefile.Rel { return &c.LongRunning.InitScript }),
	"longRunning.initializerInstructions": rel(func(c *Config) *safefile.Rel { return &c.LongRunning.InitializerInstructions }),
	"longRunning.enforceCleanStop": func(c *Config, v gjson.Result) error {
		b, err := boolean(v)
		if err == nil {
			c.LongRunning.EnforceCleanStop = b
		}
		return err
	},
	"longRunning.stopMode": func(c *Config, v gjson.Result) error {
		if v.Type != gjson.String || v.Str != "block" && v.Str != "nudge" {
			return fmt.Errorf("must be \"block\" or \"nudge\", not %s", v.Raw)
		}
		c.LongRunning.StopMode = v.Str
		return nil
	},
	"longRunning.requiredFiles": rels(func(c *Config) *[]safefile.Rel { return &c.LongRunning.RequiredFiles }),
	"longRunning.ignorePaths":   strs(func(c *Config) *[]string { return &c.LongRunning.IgnorePaths }),
	"longRunning.nextFeatures": func(c *Config, v gjson.Result) error {
		n, err := count(v, 0, 100)
		if err == nil {
			c.LongRunning.NextFeatures = n
		}
		return err
	},
	"context.window": func(c *Config, v gjson.Result) error {
		n, err := count(v, 1000, 100_000_000)
		if err == nil {
			c.Context.Window = n
			c.spec.windowSet = true
		}
		return err
	},
	"context.warn":      threshold("context.warn", func(c *Config) *int { return &c.Context.Warn }),
	"context.critical":  threshold("context.critical", func(c *Config) *int { return &c.Context.Critical }),
	"context.emergency": threshold("context.emergency", func(c *Config) *int { return &c.Context.Emergency }),
	"checkpoints": func(c *Config, v gjson.Result) error {
		n, err := count(v, 0, 1000)
		if err == nil {
			c.Checkpoints = n
		}
		return err
	},
	"output": func(c *Config, v gjson.Result) error {
		if v.Type != gjson.String || v.Str != "brief" && v.Str != "full" {
			return fmt.Errorf("must be \"brief\" or \"full\", not %s", v.Raw)
		}
		c.Output = v.Str
		return nil
	},
	"handoff": func(c *Config, v gjson.Result) error {
		b, err := boolean(v)
		if err == nil {
			c.Handoff = b
		}
		return err
	},
	"dryRun": func(c *Config, v gjson.Result) error {
		b, err := boolean(v)
		if err == nil {
			c.DryRun = b
		}
		return err
	},
}

// apply sets the keys of a parsed file. Thresholds given as percentages
// are resolved after the window, whatever the order of the keys.
func (c *Config) apply(root gjson.Result, file string, set map[string]bool) []string {
	var notes []string
	flat := map[string]gjson.Result{}
	flatten("", root, flat)
	names := make([]string, 0, len(flat))
	for k := range flat {
		names = append(names, k)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(order(a), order(b)) })
	for _, k := range names {
		setKey, ok := keys[k]
		if !ok {
			notes = append(notes, fmt.Sprintf("unknown key %q in %s (ignored)%s", k, file, didYouMean(k)))
			continue
		}
		if err := setKey(c, flat[k]); err != nil {
			notes = append(notes, fmt.Sprintf("%s in %s: %v; using %s", k, file, err, c.current(k)))
			continue
		}
		set[k] = true
	}
	return notes
}

// order puts the window before the thresholds that may be percentages of it.
func order(key string) string {
	if key == "context.window" {
		return "0"
	}
	return "1" + key
}

func flatten(prefix string, v gjson.Result, out map[string]gjson.Result) {
	v.ForEach(func(k, val gjson.Result) bool {
		name := k.String()
		if prefix != "" {
			name = prefix + "." + name
		}
		if val.IsObject() && (name == "longRunning" || name == "context") {
			flatten(name, val, out)
		} else {
			out[name] = val
		}
		return true
	})
}

// env maps SESSION_HOOKS_* variables onto keys.
var env = map[string]string{
	"SESSION_HOOKS_DRY_RUN":            "dryRun",
	"SESSION_HOOKS_OUTPUT":             "output",
	"SESSION_HOOKS_HANDOFF":            "handoff",
	"SESSION_HOOKS_LONG_RUNNING":       "longRunning.enabled",
	"SESSION_HOOKS_ENFORCE_CLEAN_STOP": "longRunning.enforceCleanStop",
	"SESSION_HOOKS_FEATURE_LIST":       "longRunning.featureList",
	"SESSION_HOOKS_PROGRESS_FILE":      "longRunning.progressFile",
	"SESSION_HOOKS_CONTEXT_WINDOW":     "context.window",
	"SESSION_HOOKS_CONTEXT_WARN":       "context.warn",
	"SESSION_HOOKS_CONTEXT_CRITICAL":   "context.critical",
	"SESSION_HOOKS_CONTEXT_EMERGENCY":  "context.emergency",
}

func (c *Config) applyEnv(getenv func(string) string, set map[string]bool) []string {
	var notes []string
	names := make([]string, 0, len(env))
	for name := range env {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(order(env[a]), order(env[b])) })
	for _, name := range names {
		raw := getenv(name)
		if raw == "" {
			continue
		}
		v := gjson.Parse(raw)
		if jsondepth.Check([]byte(raw), jsondepth.Max) != nil || !gjson.Valid(raw) {
			v = gjson.Parse(strconv.Quote(raw)) // a bare word is a string
		}
		if err := keys[env[name]](c, v); err != nil {
			notes = append(notes, fmt.Sprintf("%s=%q: %v; using %s", name, raw, err, c.current(env[name])))
			continue
		}
		set[env[name]] = true
	}
	return notes
}

// current says a key's effective value, for notes.
func (c *Config) current(key string) string {
	lr := c.LongRunning
	switch key {
	case "context.window":
		return strconv.Itoa(c.Context.Window)
	case "context.warn":
		return strconv.Itoa(c.Context.Warn)
	case "context.critical":
		return strconv.Itoa(c.Context.Critical)
	case "context.emergency":
		return strconv.Itoa(c.Context.Emergency)
	case "longRunning.nextFeatures":
		return strconv.Itoa(lr.NextFeatures)
	case "longRunning.enabled":
		if lr.Enabled == nil {
			return "the default (on when the feature list exists)"
		}
		return strconv.FormatBool(*lr.Enabled)
	case "longRunning.enforceCleanStop":
		return strconv.FormatBool(lr.EnforceCleanStop)
	case "longRunning.stopMode":
		return strconv.Quote(lr.StopMode)
	case "longRunning.featureList":
		return strconv.Quote(string(lr.FeatureList))
	case "longRunning.progressFile":
		return strconv.Quote(string(lr.ProgressFile))
	case "longRunning.initScript":
		return strconv.Quote(string(lr.InitScript))
	case "longRunning.requiredFiles":
		return "the feature list, the progress file and the init script"
	case "longRunning.ignorePaths":
		return fmt.Sprintf("%q", lr.IgnorePaths)
	case "checkpoints":
		return strconv.Itoa(c.Checkpoints)
	case "dryRun":
		return strconv.FormatBool(c.DryRun)
	case "output":
		return strconv.Quote(c.Output)
	case "handoff":
		return strconv.FormatBool(c.Handoff)
	}
	return "the default"
}

// didYouMean names the known key closest to a mistyped one, when one is
// close enough to be the one meant.
func didYouMean(key string) string {
	candidates := []string{"longRunning", "context"}
	for k := range keys {
		candidates = append(candidates, k)
	}
	if best := suggest.Closest(key, candidates); best != "" {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	return ""
}

func boolean(v gjson.Result) (bool, error) {
	switch {
	case v.Type == gjson.True:
		return true, nil
	case v.Type == gjson.False:
		return false, nil
	case v.Type == gjson.Number && (v.Num == 0 || v.Num == 1):
		return v.Num == 1, nil
	case v.Type == gjson.String:
		switch strings.ToLower(v.Str) {
		case "1", "true", "yes", "on":
			return true, nil
		case "0", "false", "no", "off":
			return false, nil
		}
	}
	return false, fmt.Errorf("must be true or false, not %s", v.Raw)
}

func count(v gjson.Result, lo, hi int) (int, error) {
	if v.Type == gjson.String {
		v = gjson.Parse(v.Str)
	}
	if v.Type != gjson.Number || v.Num != float64(int(v.Num)) || int(v.Num) < lo || int(v.Num) > hi {
		return 0, fmt.Errorf("must be a whole number from %d to %d, not %s", lo, hi, v.Raw)
	}
	return int(v.Num), nil
}

func strs(field func(*Config) *[]string) setter {
	return func(c *Config, v gjson.Result) error {
		if !v.IsArray() {
			return fmt.Errorf("must be an array of strings, not %s", v.Raw)
		}
		var out []string
		for _, e := range v.Array() {
			if e.Type != gjson.String {
				return fmt.Errorf("must be an array of strings, not %s", v.Raw)
			}
			out = append(out, e.Str)
		}
		*field(c) = out
		return nil
	}
}

// MaxRequiredFiles bounds longRunning.requiredFiles: each is looked for at
// every stop, and each missing one is a line of the stop's reply.
const MaxRequiredFiles = 100

// rel accepts a path inside the project, relative to it.
func rel(field func(*Config) *safefile.Rel) setter {
	return func(c *Config, v gjson.Result) error {
		p, err := projectPath(v)
		if err == nil {
			*field(c) = p
		}
		return err
	}
}

// projectPath reads a path inside the project, relative to it.
func projectPath(v gjson.Result) (safefile.Rel, error) {
	if v.Type != gjson.String {
		return "", fmt.Errorf("must be a path inside the project, not %s", v.Raw)
	}
	p, err := safefile.ParseRel(v.Str)
	if err != nil {
		return "", fmt.Errorf("must be a path inside the project, relative to it: %v", err)
	}
	return p, nil
}

// rels accepts up to MaxRequiredFiles paths inside the project.
func rels(field func(*Config) *[]safefile.Rel) setter {
	return func(c *Config, v gjson.Result) error {
		if !v.IsArray() {
			return fmt.Errorf("must be an array of paths inside the project, not %s", v.Raw)
		}
		all := v.Array()
		if len(all) > MaxRequiredFiles {
			return fmt.Errorf("names %d files, over the %d a stop looks for", len(all), MaxRequiredFiles)
		}
		var out []safefile.Rel
		for _, e := range all {
			p, err := projectPath(e)
			if err != nil {
				return err
			}
			out = append(out, p)
		}
		*field(c) = out
		return nil
	}
}

// threshold accepts tokens (150000) or a percentage of the window ("75%").
func threshold(key string, field func(*Config) *int) setter {
	return func(c *Config, v gjson.Result) error {
		if c.spec.shares == nil {
			c.spec.shares, c.spec.tokens = map[string]float64{}, map[string]int{}
		}
		if v.Type == gjson.String && strings.HasSuffix(v.Str, "%") {
			p, err := strconv.ParseFloat(strings.TrimSuffix(v.Str, "%"), 64)
			if err != nil || p <= 0 || p > 100 {
				return fmt.Errorf("must be tokens or a percentage from 0 to 100%%, not %s", v.Raw)
			}
			*field(c) = int(p / 100 * float64(c.Context.Window))
			c.spec.shares[key] = p / 100
			delete(c.spec.tokens, key)
			return nil
		}
		n, err := count(v, 1, 100_000_000)
		if err != nil {
			return fmt.Errorf("must be tokens or a percentage of context.window such as \"75%%\", not %s", v.Raw)
		}
		*field(c) = n
		c.spec.tokens[key] = n
		delete(c.spec.shares, key)
		return nil
	}
}

// ContextFor is the context settings for a session whose model has the
// given window (0: unknown): the configured window overrides it, and
// thresholds not given in tokens are shares of the window. Out of order,
// they fall back to 50%, 75% and 90% of it.
func (c Config) ContextFor(window int) Context {
	if c.spec.windowSet || window <= 0 {
		window = c.Context.Window
	}
	x := Context{Window: window}
	for _, t := range []struct {
		key   string
		v     *int
		share float64
	}{{"context.warn", &x.Warn, warnShare}, {"context.critical", &x.Critical, criticalShare}, {"context.emergency", &x.Emergency, emergencyShare}} {
		switch tokens, ok := c.spec.tokens[t.key]; {
		case ok:
			*t.v = tokens
		case c.spec.shares[t.key] > 0:
			*t.v = int(c.spec.shares[t.key] * float64(window))
		default:
			*t.v = int(t.share * float64(window))
		}
	}
	if !(x.Warn < x.Critical && x.Critical < x.Emergency && x.Emergency <= x.Window) {
		x.Warn, x.Critical, x.Emergency = int(warnShare*float64(window)), int(criticalShare*float64(window)), int(emergencyShare*float64(window))
	}
	return x
}

// Active says whether the long-running checks apply: explicitly enabled,
// or a feature list present and not explicitly disabled.
func (c Config) Active(project string) bool {
	if c.LongRunning.Enabled != nil {
		return *c.LongRunning.Enabled
	}
	_, err := safefile.StatIn(project, c.LongRunning.FeatureList)
	return err == nil
}
