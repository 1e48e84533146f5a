package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/scripts/internal/goreleaser"
)

// The manifest gets one entry per target Claude Code provisions, keyed as
// it derives bin/session-hooks from (name-triple), each the sha256 of that
// build; Windows builds are left out (Claude Code fetches none), and the
// rest of the manifest stays.
func TestTheManifestGetsTheFourTargetsBinaries(t *testing.T) {
	dir := t.TempDir()
	var artifacts []goreleaser.Artifact
	for _, target := range [][2]string{{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "amd64"}, {"darwin", "arm64"}, {"windows", "amd64"}, {"linux", "386"}} {
		path := filepath.Join(dir, target[0]+"_"+target[1])
		os.WriteFile(path, []byte(target[0]+target[1]), 0o755)
		artifacts = append(artifacts, goreleaser.Artifact{Name: "session-hooks", Path: path, Goos: target[0], Goarch: target[1], Type: "Binary"})
	}
	os.WriteFile(filepath.Join(dir, "archive"), []byte("an archive"), 0o644)
	artifacts = append(artifacts, goreleaser.Artifact{Name: "x.tar.gz", Path: filepath.Join(dir, "archive"), Goos: "linux", Goarch: "amd64", Type: "Archive"})
	b, _ := json.Marshal(artifacts)
	os.WriteFile(filepath.Join(dir, "artifacts.json"), b, 0o644)
	os.WriteFile(filepath.Join(dir, "metadata.json"), []byte(`{"project_name":"session-hooks","version":"1.4.2"}`), 0o644)
	manifest := filepath.Join(dir, "plugin.json")
	os.WriteFile(manifest, []byte("{\n  \"name\": \"session-hooks\",\n  \"version\": \"0.1.0\"\n}\n"), 0o644)
	if err := run(dir, manifest, io.Discard); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Name     string
		Binaries map[string]struct{ SHA256 string }
	}
	b, _ = os.ReadFile(manifest)
	if err := json.Unmarshal(b, &got); err != nil || got.Name != "session-hooks" {
		t.Fatalf("%v:\n%s", err, b)
	}
	want := map[string]string{ // sha256 of "linuxamd64" and so on
		"session-hooks-x86_64-unknown-linux-musl":  "linuxamd64",
		"session-hooks-aarch64-unknown-linux-musl": "linuxarm64",
		"session-hooks-x86_64-apple-darwin":        "darwinamd64",
		"session-hooks-aarch64-apple-darwin":       "darwinarm64",
	}
	if !strings.HasPrefix(string(b), "{\n  \"name\": \"session-hooks\",\n  \"version\": \"1.4.2\",\n  \"binaries\": {\n    \"session-hooks-") {
		t.Errorf("the manifest is not laid out as the rest of it:\n%s", b)
	}
	if len(got.Binaries) != len(want) {
		t.Errorf("binaries %v", got.Binaries)
	}
	for name, content := range want {
		path := filepath.Join(dir, "sum")
		os.WriteFile(path, []byte(content), 0o644)
		sum, _ := sha256File(path)
		if got.Binaries[name].SHA256 != sum {
			t.Errorf("%s: %q, want the sha256 of its build", name, got.Binaries[name].SHA256)
		}
	}
	// A manifest without the release's version is refused, not left at
	// the placeholder: Claude Code caches plugins by version.
	os.Remove(filepath.Join(dir, "metadata.json"))
	if err := run(dir, manifest, io.Discard); err == nil {
		t.Error("no metadata.json, yet the manifest was written")
	}
	os.WriteFile(filepath.Join(dir, "metadata.json"), []byte(`{"version":"1.4.2"}`), 0o644)
	// Run again (a new release): the entries are replaced, not added.
	if err := run(dir, manifest, io.Discard); err != nil {
		t.Fatal(err)
	}
	if b2, _ := os.ReadFile(manifest); string(b2) != string(b) || strings.Count(string(b2), "binaries") != 1 {
		t.Errorf("a second run changed the manifest:\n%s", b2)
	}
}

func TestAMissingTargetFails(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "artifacts.json"), []byte(`[]`), 0o644)
	if err := run(dir, filepath.Join(dir, "plugin.json"), io.Discard); err == nil || !strings.Contains(err.Error(), "want 4") {
		t.Errorf("%v", err)
	}
}
