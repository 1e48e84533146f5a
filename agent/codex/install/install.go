// Package install wires session-hooks into Codex CLI 0.169.0: the
// entries in $CODEX_HOME/hooks.json (Claude Code's shape), and the trust
// Codex requires of each handler in config.toml, with the hash Codex itself
// reports (codex app-server, hooks/list).
package install

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	contract "github.com/session-hooks/session-hooks/install"

	"github.com/session-hooks/session-hooks/agent/codex"
	"github.com/session-hooks/session-hooks/install/backup"
	"github.com/session-hooks/session-hooks/install/hookfile"
)

// Entries are the hooks session-hooks wires into Codex, from the event
// table by Codex's names: the brief at startup, resume, clear and fork,
// the recovery after a compaction, the snapshot before it, the end (Codex
// gives SessionEnd 3 seconds at most), and with longRunning the checks on
// Stop.
func Entries(program string, longRunning bool) []hookfile.Entry {
	return hookfile.AgentEntries("codex", program, codex.Events, longRunning, true, func(event string, seconds int) int {
		if m, ok := codex.MaxTimeout[event]; ok {
			return min(seconds, m)
		}
		return seconds
	})
}

// Options are install's and uninstall's for Codex.
type Options struct {
	Home    string // $CODEX_HOME (default ~/.codex)
	Program string // the session-hooks the hooks run, quoted for /bin/sh
	Codex   string // the codex binary asked for the hashes to trust
	Dir     string // where codex is asked from
	Out     io.Writer
	DryRun  bool // install prints the change to hooks.json as a diff; writes nothing, asks Codex nothing
	// LongRunning, when set, adds (true) or removes (false) the checks on
	// Stop; unset, what is wired stays.
	LongRunning *bool
}

// Home is $CODEX_HOME, else ~/.codex.
func Home(getenv func(string) string, home func() (string, error)) (string, error) {
	if h := getenv("CODEX_HOME"); h != "" {
		return filepath.Abs(h)
	}
	dir, err := home()
	if err != nil {
		return "", fmt.Errorf("no home directory for ~/.codex (set CODEX_HOME): %w", err)
	}
	return filepath.Join(dir, ".codex"), nil
}

// Install wires the entries into $CODEX_HOME/hooks.json and trusts them in
// config.toml with the hashes Codex itself reports, so that Codex runs
// them without --dangerously-bypass-hook-trust. Every other byte of both
// files stays. Only the entries install writes are trusted, never another
// that merely names session-hooks ("curl … | sh; session-hooks init"); and
// an install that fails takes back what it wrote.
func Install(ctx context.Context, opt Options) (err error) {
	var undo []func() error
	defer func() {
		if err == nil {
			return
		}
		for i := len(undo) - 1; i >= 0; i-- {
			if uerr := undo[i](); uerr != nil {
				err = fmt.Errorf("%w; taking it back failed too: %v", err, uerr)
				return
			}
		}
		if len(undo) > 0 {
			err = fmt.Errorf("%w. What install wrote was taken back", err)
		}
	}()
	hooksPath := filepath.Join(opt.Home, "hooks.json")
	doc, err := hookfile.ReadFile(hooksPath)
	if err != nil {
		return err
	}
	want := Entries(opt.Program, longRunning(opt.LongRunning, doc))
	res, err := hookfile.Install(doc, want, "")
	err = hookfile.ReadBy(err, codex.Adapter.Label)
	if err != nil {
		return fmt.Errorf("cannot install into %s: %v. The file is left untouched.", hooksPath, err)
	}
	if opt.DryRun {
		if !res.Changed {
			fmt.Fprintf(opt.Out, "%s needs no change.\n", hooksPath)
			return nil
		}
		contract.ShowChange(opt.Out, hooksPath, doc, res.JSON)
		fmt.Fprintf(opt.Out, "Then each new entry would be trusted in %s with the hash Codex reports for it once it is written.\n",
			filepath.Join(opt.Home, "config.toml"))
		return nil
	}
	if res.Changed {
		if err := os.MkdirAll(opt.Home, 0o700); err != nil {
			return err
		}
		// A file it creates is marked so, for uninstall to remove again.
		if _, err := contract.Save(hooksPath, fenceOf(opt), doc, doc != nil, res.JSON, 0o600); err != nil {
			return err
		}
		undo = append(undo, restore(hooksPath, fenceOf(opt), res.JSON, doc))
		fmt.Fprintf(opt.Out, "Wired %s:\n  %s\n", hooksPath, strings.Join(res.Changes, "\n  "))
	}
	handlers, err := ListHandlers(ctx, opt.Codex, opt.Home, opt.Dir)
	if err != nil {
		return fmt.Errorf("%s is written, but Codex was not asked which hashes to trust: %v. Until they are trusted, Codex skips these hooks silently (run install again once codex runs, or trust them in Codex's /hooks)", hooksPath, err)
	}
	hashes, keys := map[string]string{}, []string(nil)
	for _, h := range handlers {
		if strings.HasPrefix(h.Key, hooksPath+":") && wrote(want, h.Command) && h.TrustStatus != "trusted" {
			hashes[h.Key] = h.CurrentHash
			keys = append(keys, h.Key)
		}
	}
	configPath := filepath.Join(opt.Home, "config.toml")
	config, err := hookfile.ReadFile(configPath)
	if err != nil {
		return err
	}
	if updated := SetTrust(config, hashes, keys); !bytes.Equal(updated, config) {
		if _, err := contract.Save(configPath, fenceOf(opt), config, config != nil, updated, 0o600); err != nil {
			return err
		}
		undo = append(undo, restore(configPath, fenceOf(opt), updated, config))
	}
	return verifyTrusted(ctx, opt, hooksPath, want)
}

// wrote says whether command is one of the entries install writes.
func wrote(want []hookfile.Entry, command string) bool {
	return slices.ContainsFunc(want, func(e hookfile.Entry) bool { return e.Command == command })
}

// restore puts back what a file held before install wrote now into it,
// or removes the file install made.
func restore(path string, f contract.Fence, now, before []byte) func() error {
	return func() error {
		if before == nil {
			return os.Remove(path)
		}
		_, err := contract.Save(path, f, now, true, before, 0o600)
		return err
	}
}

// longRunning is whether the checks are wired: as asked, else as the file
// has them.
func longRunning(asked *bool, doc []byte) bool {
	if asked != nil {
		return *asked
	}
	js, err := hookfile.Parse(doc)
	if err != nil {
		return false
	}
	for _, h := range hookfile.Wired(js) {
		if h.Event == codex.Events["stop"] && hookfile.IsOurs(h.Event, h.Command, "") {
			return true
		}
	}
	return false
}

// verifyTrusted asks Codex again: "trusted" is what Codex says, not what
// was written.
func verifyTrusted(ctx context.Context, opt Options, hooksPath string, want []hookfile.Entry) error {
	handlers, err := ListHandlers(ctx, opt.Codex, opt.Home, opt.Dir)
	if err != nil {
		return err
	}
	ours := 0
	for _, h := range handlers {
		if !strings.HasPrefix(h.Key, hooksPath+":") || !wrote(want, h.Command) {
			continue
		}
		ours++
		if h.TrustStatus != "trusted" {
			return fmt.Errorf("Codex still reports %s as %s after it was trusted in config.toml", h.Key, h.TrustStatus)
		}
	}
	if ours != len(want) {
		return fmt.Errorf("Codex lists %d of the %d hooks written to %s", ours, len(want), hooksPath)
	}
	fmt.Fprintf(opt.Out, "Codex trusts the %d hooks of session-hooks (%s).\n", ours, filepath.Join(opt.Home, "config.toml"))
	return nil
}

// Uninstall removes our entries from hooks.json and their trust from
// config.toml; every other byte stays.
func Uninstall(opt Options) error {
	hooksPath := filepath.Join(opt.Home, "hooks.json")
	doc, err := hookfile.ReadFile(hooksPath)
	if err != nil || doc == nil {
		if err == nil {
			fmt.Fprintf(opt.Out, "%s does not exist; nothing to remove.\n", hooksPath)
		}
		return err
	}
	js, err := hookfile.Parse(doc)
	if err != nil {
		return fmt.Errorf("cannot read %s: %v. The file is left untouched.", hooksPath, err)
	}
	var keys []string
	theirsBefore := theirKeys(hooksPath, js)
	for _, w := range hookfile.Wired(js) {
		if hookfile.IsOurs(w.Event, w.Command, "") {
			keys = append(keys, Key(hooksPath, w.Event, w.Group, w.Index))
		}
	}
	res, err := hookfile.Uninstall(doc, "")
	err = hookfile.ReadBy(err, codex.Adapter.Label)
	if err != nil {
		return fmt.Errorf("cannot uninstall from %s: %v. The file is left untouched.", hooksPath, err)
	}
	after, err := hookfile.Parse(res.JSON)
	if err != nil {
		return err
	}
	theirsAfter := theirKeys(hooksPath, after)
	if len(theirsAfter) != len(theirsBefore) {
		return fmt.Errorf("uninstall would lose hooks of %s that are not ours. The file is left untouched.", hooksPath)
	}
	configPath := filepath.Join(opt.Home, "config.toml")
	config, err := hookfile.ReadFile(configPath)
	if err != nil {
		return err
	}
	updated := RenameTrust(RemoveTrust(config, keys), theirsBefore, theirsAfter)
	if res.Changed {
		// A file install created, holding nothing now, goes.
		removed, err := backup.RemoveCreated(hooksPath, res.JSON)
		if err != nil {
			return err
		}
		if !removed {
			if _, err := contract.Save(hooksPath, fenceOf(opt), doc, true, res.JSON, 0o600); err != nil {
				return err
			}
		}
	}
	if !bytes.Equal(updated, config) {
		if _, err := contract.Save(configPath, fenceOf(opt), config, config != nil, updated, 0o600); err != nil {
			return err
		}
	}
	fmt.Fprintf(opt.Out, "Removed %d hook(s) of session-hooks from %s, and their trust from %s.\n", res.Removed, hooksPath, configPath)
	return nil
}

// theirKeys are the trust keys of the hooks that are not ours, in the
// order of the file.
func theirKeys(path string, js []byte) []string {
	var out []string
	for _, w := range hookfile.Wired(js) {
		if !hookfile.IsOurs(w.Event, w.Command, "") {
			out = append(out, Key(path, w.Event, w.Group, w.Index))
		}
	}
	return out
}

// fenceOf is the folder Codex's files are written in: $CODEX_HOME (a link
// out of it is not written through).
func fenceOf(opt Options) contract.Fence { return contract.Fence{Root: opt.Home} }
