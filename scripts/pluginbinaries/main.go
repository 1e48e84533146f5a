// Command pluginbinaries writes the release binaries into the plugin's
// manifest (plugin/.claude-plugin/plugin.json) as Claude Code 2.1.330 reads
// them: "binaries" maps "<name>-<target triple>" to {"sha256": …} for the
// targets it provisions (x86_64 and aarch64, linux-musl and apple-darwin;
// a static Go binary runs on any Linux). Every other byte of the manifest
// stays (the manifest is laid out as pretty lays JSON out). It reads goreleaser's dist/artifacts.json; scripts/release-check.sh
// runs it after the snapshot build.
//
//	go run ./scripts/pluginbinaries -dist dist -manifest plugin/.claude-plugin/plugin.json
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/session-hooks/session-hooks/scripts/internal/goreleaser"
	"github.com/tailscale/hujson"
	"github.com/tidwall/pretty"
)

func main() {
	dist := flag.String("dist", "dist", "goreleaser's output directory")
	manifest := flag.String("manifest", "plugin/.claude-plugin/plugin.json", "the plugin manifest to edit")
	flag.Parse()
	if err := run(*dist, *manifest, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "pluginbinaries:", err)
		os.Exit(1)
	}
}

// triple is the target Claude Code names a binary for, "" for a target it
// does not provision (Windows).
func triple(goos, goarch string) string {
	arch := map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[goarch]
	switch {
	case arch == "":
		return ""
	case goos == "linux":
		return arch + "-unknown-linux-musl"
	case goos == "darwin":
		return arch + "-apple-darwin"
	}
	return ""
}

func run(dist, manifest string, out io.Writer) error {
	all, err := goreleaser.Artifacts(dist)
	if err != nil {
		return err
	}
	binaries := map[string]map[string]string{}
	for _, a := range all {
		t := triple(a.Goos, a.Goarch)
		if a.Type != "Binary" || t == "" {
			continue
		}
		sum, err := sha256File(a.Path)
		if err != nil {
			return err
		}
		binaries["session-hooks-"+t] = map[string]string{"sha256": sum}
	}
	if len(binaries) != 4 {
		return fmt.Errorf("%d binaries for Claude Code's targets in %s, want 4 (linux and darwin, amd64 and arm64)", len(binaries), dist)
	}
	doc, err := os.ReadFile(manifest)
	if err != nil {
		return err
	}
	v, err := hujson.Parse(doc)
	if err != nil {
		return fmt.Errorf("%s: %v", manifest, err)
	}
	// Claude Code keys its plugin cache by this version: one left at the
	// manifest's placeholder would keep every release in one folder.
	version, err := goreleaser.Version(dist)
	if err != nil {
		return err
	}
	value, _ := json.Marshal(binaries)
	patch, _ := json.Marshal([]map[string]any{
		{"op": "add", "path": "/version", "value": version},
		{"op": "add", "path": "/binaries", "value": json.RawMessage(value)}})
	if err := v.Patch(patch); err != nil {
		return fmt.Errorf("%s: %v", manifest, err)
	}
	// Laid out as the manifest is (two spaces, keys in their order).
	if err := os.WriteFile(manifest, pretty.Pretty(v.Pack()), 0o644); err != nil {
		return err
	}
	names := make([]string, 0, len(binaries))
	for n := range binaries {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(out, "%s %s\n", binaries[n]["sha256"], n)
	}
	return nil
}

func sha256File(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
