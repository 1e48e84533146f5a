// Package config reads a project's optional .claude/session-hooks.json,
// then lets SESSION_HOOKS_* environment variables (and the CLI's flags)
// override it. Every key is optional with a documented default; an unknown
// key or a bad value becomes a note for the hook's output and the default
// is used: a typo in a config file must never break a session.
package config

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

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
}

// LongRunning configures the long-running agent checks.
type LongRunning struct {
	// Enabled turns the checks on without a feature list (which then
	// gets the initializer's instructions). With a feature list they are
	// on unless Enabled is explicitly false.
	Enabled *bool
	// Paths, relative to the project.
	FeatureList, ProgressFile, InitScript string
	// InitializerInstructions names a file whose text replaces the
	// built-in instructions for a project without a feature list yet.
	InitializerInstructions string
	// EnforceCleanStop makes stop block while work is unfinished
	// (default true while active).
	EnforceCleanStop bool
	// RequiredFiles must exist before the agent may stop.
	RequiredFiles []string
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
			EnforceCleanStop: true, RequiredFiles: []string{"feature_list.json", "claude-progress.txt", "init.sh"},
			NextFeatures: 3,
		},
		Context:     Context{Window: 200000, Warn: 100000, Critical: 150000, Emergency: 180000},
		Checkpoints: 10,
		Output:      "brief",
		Handoff:     true,
	}
}

// Load reads the project's file (or path, when set) and the environment.
// The notes say what was ignored and why.
func Load(project, path string, getenv func(string) string) (Config, []string) {
	c := Defaults()
	var notes []string
	if path == "" {
		path = getenv("SESSION_HOOKS_CONFIG")
	}
	if path == "" {
		path = filepath.Join(project, File)
	} else if !filepath.IsAbs(path) {
		path = filepath.Join(project, path)
	}
	b, err := os.ReadFile(path)
	switch {
	case os.IsNotExist(err):
	case err != nil:
		notes = append(notes, fmt.Sprintf("%s not read (%v); using the defaults", File, err))
	case !gjson.ValidBytes(b) || !gjson.ParseBytes(b).IsObject():
		notes = append(notes, fmt.Sprintf("%s is not a JSON object; using the defaults", File))
	default:
		notes = append(notes, c.apply(gjson.ParseBytes(b))...)
	}
	notes = append(notes, c.applyEnv(getenv)...)
	return c, notes
}

// setter applies one key's value, or says why it cannot.
type setter func(c *Config, v gjson.Result) error

var keys = map[string]setter{
	"longRunning.enabled": func(c *Config, v gjson.Result) error {
		b, err := boolean(v)
		c.LongRunning.Enabled = &b
		return err
	},
	"longRunning.featureList":             str(func(c *Config) *string { return &c.LongRunning.FeatureList }),
	"longRunning.progressFile":            str(func(c *Config) *string { return &c.LongRunning.ProgressFile }),
	"longRunning.initScript":              str(func(c *Config) *string { return &c.LongRunning.InitScript }),
	"longRunning.initializerInstructions": str(func(c *Config) *string { return &c.LongRunning.InitializerInstructions }),
	"longRunning.enforceCleanStop": func(c *Config, v gjson.Result) error {
		b, err := boolean(v)
		if err == nil {
			c.LongRunning.EnforceCleanStop = b
		}
		return err
	},
	"longRunning.requiredFiles": strs(func(c *Config) *[]string { return &c.LongRunning.RequiredFiles }),
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
		}
		return err
	},
	"context.warn":      threshold(func(c *Config) *int { return &c.Context.Warn }),
	"context.critical":  threshold(func(c *Config) *int { return &c.Context.Critical }),
	"context.emergency": threshold(func(c *Config) *int { return &c.Context.Emergency }),
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
func (c *Config) apply(root gjson.Result) []string {
	var notes []string
	flat := map[string]gjson.Result{}
	flatten("", root, flat)
	names := make([]string, 0, len(flat))
	for k := range flat {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return order(names[i]) < order(names[j]) })
	for _, k := range names {
		set, ok := keys[k]
		if !ok {
			notes = append(notes, fmt.Sprintf("unknown key %q in %s (ignored)", k, File))
			continue
		}
		if err := set(c, flat[k]); err != nil {
			notes = append(notes, fmt.Sprintf("%s in %s: %v; using %s", k, File, err, c.current(k)))
		}
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

func (c *Config) applyEnv(getenv func(string) string) []string {
	var notes []string
	names := make([]string, 0, len(env))
	for name := range env {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return order(env[names[i]]) < order(env[names[j]]) })
	for _, name := range names {
		raw := getenv(name)
		if raw == "" {
			continue
		}
		v := gjson.Parse(raw)
		if !gjson.Valid(raw) {
			v = gjson.Parse(strconv.Quote(raw)) // a bare word is a string
		}
		if err := keys[env[name]](c, v); err != nil {
			notes = append(notes, fmt.Sprintf("%s=%q: %v; using %s", name, raw, err, c.current(env[name])))
		}
	}
	return notes
}

// current says a key's effective value, for notes.
func (c *Config) current(key string) string {
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
		return strconv.Itoa(c.LongRunning.NextFeatures)
	}
	return "the default"
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

func str(field func(*Config) *string) setter {
	return func(c *Config, v gjson.Result) error {
		if v.Type != gjson.String || strings.TrimSpace(v.Str) == "" {
			return fmt.Errorf("must be a non-empty string, not %s", v.Raw)
		}
		*field(c) = v.Str
		return nil
	}
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

// threshold accepts tokens (150000) or a percentage of the window ("75%").
func threshold(field func(*Config) *int) setter {
	return func(c *Config, v gjson.Result) error {
		if v.Type == gjson.String && strings.HasSuffix(v.Str, "%") {
			p, err := strconv.ParseFloat(strings.TrimSuffix(v.Str, "%"), 64)
			if err != nil || p <= 0 || p > 100 {
				return fmt.Errorf("must be tokens or a percentage from 0 to 100%%, not %s", v.Raw)
			}
			*field(c) = int(p / 100 * float64(c.Context.Window))
			return nil
		}
		n, err := count(v, 1, 100_000_000)
		if err != nil {
			return fmt.Errorf("must be tokens or a percentage of context.window such as \"75%%\", not %s", v.Raw)
		}
		*field(c) = n
		return nil
	}
}

// Active says whether the long-running checks apply: explicitly enabled,
// or a feature list present and not explicitly disabled.
func (c Config) Active(project string) bool {
	if c.LongRunning.Enabled != nil {
		return *c.LongRunning.Enabled
	}
	_, err := os.Stat(filepath.Join(project, c.LongRunning.FeatureList))
	return err == nil
}
