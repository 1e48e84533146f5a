// Package goreleaser reads what goreleaser writes into its output directory
// (dist/), for the scripts that make the plugin manifest's binaries and the
// npm packages from a release.
package goreleaser

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// Artifact is an entry of goreleaser's artifacts.json: a binary, an
// archive, the checksums file.
type Artifact struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	Goos   string `json:"goos"`
	Goarch string `json:"goarch"`
	Type   string `json:"type"` // "Binary", "Archive", …
}

// Artifacts reads dir/artifacts.json.
func Artifacts(dir string) ([]Artifact, error) {
	file := filepath.Join(dir, "artifacts.json")
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var all []Artifact
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return all, nil
}

// semver is npm's version syntax (a goreleaser snapshot's is one too).
var semver = regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// Version is the version goreleaser built, from dir/metadata.json: every
// package and the plugin's manifest carry it.
func Version(dir string) (string, error) {
	file := filepath.Join(dir, "metadata.json")
	b, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	var m struct{ Version string }
	if err := json.Unmarshal(b, &m); err != nil {
		return "", fmt.Errorf("%s: %v", file, err)
	}
	if !semver.MatchString(m.Version) {
		return "", fmt.Errorf("%s: version %q is not one npm takes (MAJOR.MINOR.PATCH)", file, m.Version)
	}
	return m.Version, nil
}
