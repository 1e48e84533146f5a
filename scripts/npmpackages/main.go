// Command npmpackages makes the npm packages of a release from goreleaser's
// output: one package per platform holding that platform's binary
// (@session-hooks/linux-x64 and so on, with "os" and "cpu" so that npm
// installs only the one that matches), and the session-hooks package, whose
// command (npm/session-hooks.js) runs it and which lists them all as
// optional dependencies. This is how esbuild and lefthook ship Go and other
// native binaries through npm. Its one install script (npm/postinstall.js)
// only puts the binary in the launcher's place, so that the command starts
// no Node.js; npm's --ignore-scripts and installs from its cache work
// without it, through the launcher.
//
// Each binary is taken from its release archive, after the archive's
// sha256 was checked against checksums.txt: the packages hold the bytes
// that were released. Every package gets the release's version.
//
//	go run ./scripts/npmpackages -dist dist -out dist/npm
//
// -only names the platforms to package (e.g. linux-x64) when dist holds
// fewer than all six, as the end-to-end test's does.
//
// -plugin writes the Claude Code plugin's package.json, which depends on
// session-hooks at this version: once the packages are published,
// `npm install --package-lock-only --ignore-scripts` in the plugin's folder
// writes the package-lock.json from which Claude Code installs the binary
// into the plugin's node_modules (npm ci, at the plugin's install).
package main

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	agents "github.com/session-hooks/session-hooks/agent"
	"github.com/session-hooks/session-hooks/scripts/internal/goreleaser"
)

func main() {
	dist := flag.String("dist", "dist", "goreleaser's output directory")
	out := flag.String("out", "dist/npm", "where to write the packages, one directory each")
	launcher := flag.String("launcher", "npm/session-hooks.js", "the session-hooks package's command")
	only := flag.String("only", "", "comma-separated platforms to package (default: all six)")
	plugin := flag.String("plugin", "", "the plugin's folder, to write its package.json into")
	flag.Parse()
	var platforms []string
	if *only != "" {
		platforms = strings.Split(*only, ",")
	}
	err := run(*dist, *out, *launcher, platforms, os.Stdout)
	if err == nil && *plugin != "" {
		err = pluginPackage(*plugin, *dist)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "npmpackages:", err)
		os.Exit(1)
	}
}

// platform is one npm package of a binary.
type platform struct {
	goos, goarch string
	os, cpu      string // as Node.js names them: process.platform, process.arch
}

func (p platform) name() string { return p.os + "-" + p.cpu }

var allPlatforms = []platform{
	{"linux", "amd64", "linux", "x64"}, {"linux", "arm64", "linux", "arm64"},
	{"darwin", "amd64", "darwin", "x64"}, {"darwin", "arm64", "darwin", "arm64"},
	{"windows", "amd64", "win32", "x64"}, {"windows", "arm64", "win32", "arm64"},
}

const (
	scope      = "@session-hooks/"
	repository = "https://github.com/session-hooks/session-hooks"
)

// maxBinary bounds a file taken from an archive: the binary is about 10 MB.
var maxBinary = 200 << 20

func run(dist, out, launcher string, only []string, w io.Writer) error {
	version, err := goreleaser.Version(dist)
	if err != nil {
		return err
	}
	sums, err := checksums(filepath.Join(dist, "checksums.txt"))
	if err != nil {
		return err
	}
	archives, err := archivesOf(dist)
	if err != nil {
		return err
	}
	platforms, err := choose(only)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	optional := map[string]string{}
	var docs map[string][]byte // README.md and LICENSE, as released
	for _, p := range platforms {
		a, ok := archives[p.goos+"/"+p.goarch]
		if !ok {
			return fmt.Errorf("%s: no archive for %s/%s in %s", p.name(), p.goos, p.goarch, filepath.Join(dist, "artifacts.json"))
		}
		files, err := platformPackage(filepath.Join(out, p.name()), p, a, sums, version)
		if err != nil {
			return fmt.Errorf("%s: %w", p.name(), err)
		}
		if docs == nil {
			docs = files
		}
		optional[scope+p.name()] = version
		fmt.Fprintf(w, "%s%s@%s from %s\n", scope, p.name(), version, a.Name)
	}
	if err := wrapperPackage(filepath.Join(out, "session-hooks"), launcher, version, optional, docs); err != nil {
		return err
	}
	fmt.Fprintf(w, "session-hooks@%s\n", version)
	return nil
}

// checksums reads goreleaser's checksums.txt: "<sha256>  <file name>".
func checksums(file string) (map[string]string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	sums := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 || len(fields[0]) != 64 {
			return nil, fmt.Errorf("%s:%d: not a sha256 and a file name", file, n)
		}
		sums[strings.TrimPrefix(fields[1], "*")] = strings.ToLower(fields[0])
	}
	return sums, nil
}

// archivesOf is the release archives in artifacts.json, by "goos/goarch".
func archivesOf(dist string) (map[string]goreleaser.Artifact, error) {
	all, err := goreleaser.Artifacts(dist)
	if err != nil {
		return nil, err
	}
	archives := map[string]goreleaser.Artifact{}
	for _, a := range all {
		if a.Type == "Archive" {
			archives[a.Goos+"/"+a.Goarch] = a
		}
	}
	return archives, nil
}

func choose(only []string) ([]platform, error) {
	if len(only) == 0 {
		return allPlatforms, nil
	}
	var out []platform
	for _, name := range only {
		i := slices.IndexFunc(allPlatforms, func(p platform) bool { return p.name() == name })
		if i < 0 {
			return nil, fmt.Errorf("-only: %q is not one of linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64, win32-arm64", name)
		}
		out = append(out, allPlatforms[i])
	}
	return out, nil
}

// platformPackage writes the package of one platform's binary, taken from
// its archive once the archive's checksum is the released one; it returns
// the archive's README.md and LICENSE.
func platformPackage(dir string, p platform, a goreleaser.Artifact, sums map[string]string, version string) (map[string][]byte, error) {
	want, ok := sums[a.Name]
	if !ok {
		return nil, fmt.Errorf("%s is not in checksums.txt", a.Name)
	}
	data, err := os.ReadFile(a.Path)
	if err != nil {
		return nil, err
	}
	if got := sha256.Sum256(data); hex.EncodeToString(got[:]) != want {
		return nil, fmt.Errorf("%s: sha256 %x, checksums.txt says %s", a.Path, got, want)
	}
	exe := "session-hooks"
	if p.goos == "windows" {
		exe += ".exe"
	}
	files, err := unpack(a.Name, data, exe, "LICENSE", "README.md")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", a.Path, err)
	}
	if files[exe] == nil {
		return nil, fmt.Errorf("%s holds no %s", a.Path, exe)
	}
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "bin", exe), files[exe], 0o755); err != nil {
		return nil, err
	}
	docs := map[string][]byte{"README.md": files["README.md"], "LICENSE": files["LICENSE"]}
	if err := writeFiles(dir, docs, "LICENSE"); err != nil {
		return nil, err
	}
	return docs, writeJSON(filepath.Join(dir, "package.json"), map[string]any{
		"name":            scope + p.name(),
		"version":         version,
		"description":     fmt.Sprintf("The session-hooks binary for %s %s; installed by the session-hooks package.", p.os, p.cpu),
		"license":         "MIT",
		"homepage":        repository,
		"repository":      map[string]string{"type": "git", "url": "git+" + repository + ".git"},
		"os":              []string{p.os},
		"cpu":             []string{p.cpu},
		"files":           []string{"bin", "LICENSE"},
		"preferUnplugged": true,
	})
}

// unpack returns the named files of a tar.gz or zip archive, found by
// their base name wherever goreleaser put them.
func unpack(name string, data []byte, want ...string) (map[string][]byte, error) {
	found := map[string][]byte{}
	take := func(entry string, r io.Reader) error {
		base := path.Base(entry)
		if !slices.Contains(want, base) {
			return nil
		}
		b, err := io.ReadAll(io.LimitReader(r, int64(maxBinary)+1))
		if err != nil {
			return err
		}
		if len(b) > maxBinary {
			return fmt.Errorf("%s is over %d MB", entry, maxBinary>>20)
		}
		found[base] = b
		return nil
	}
	switch {
	case strings.HasSuffix(name, ".tar.gz"):
		gz, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		tr := tar.NewReader(gz)
		for {
			h, err := tr.Next()
			if errors.Is(err, io.EOF) {
				return found, nil
			}
			if err != nil {
				return nil, err
			}
			if h.Typeflag == tar.TypeReg {
				if err := take(h.Name, tr); err != nil {
					return nil, err
				}
			}
		}
	case strings.HasSuffix(name, ".zip"):
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, err
		}
		for _, f := range zr.File {
			if !f.Mode().IsRegular() {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				return nil, err
			}
			err = take(f.Name, rc)
			rc.Close()
			if err != nil {
				return nil, err
			}
		}
		return found, nil
	}
	return nil, fmt.Errorf("not a .tar.gz or .zip archive")
}

// wrapperPackage writes the session-hooks package: its command, and every
// platform's package as an optional dependency of the same version.
func wrapperPackage(dir, launcher, version string, optional map[string]string, docs map[string][]byte) error {
	js, err := os.ReadFile(launcher)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "bin", "session-hooks.js"), js, 0o755); err != nil {
		return err
	}
	post, err := os.ReadFile(filepath.Join(filepath.Dir(launcher), "postinstall.js"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "bin", "postinstall.js"), post, 0o644); err != nil {
		return err
	}
	if err := writeFiles(dir, docs, "README.md", "LICENSE"); err != nil {
		return err
	}
	return writeJSON(filepath.Join(dir, "package.json"), map[string]any{
		"name":                 "session-hooks",
		"version":              version,
		"description":          "Gives a coding agent back where it was after a compaction or a new session (" + agents.Labels() + ").",
		"license":              "MIT",
		"homepage":             repository,
		"repository":           map[string]string{"type": "git", "url": "git+" + repository + ".git"},
		"keywords":             []string{"claude-code", "codex", "gemini-cli", "copilot-cli", "qwen-code", "hooks", "git", "agents"},
		"bin":                  map[string]string{"session-hooks": "bin/session-hooks.js"},
		"scripts":              map[string]string{"postinstall": "node bin/postinstall.js"},
		"files":                []string{"bin", "README.md", "LICENSE"},
		"optionalDependencies": optional,
		"engines":              map[string]string{"node": ">=18"},
	})
}

// pluginPackage writes the plugin's package.json: session-hooks at the
// release's version, exactly.
func pluginPackage(dir, dist string) error {
	version, err := goreleaser.Version(dist)
	if err != nil {
		return err
	}
	return writeJSON(filepath.Join(dir, "package.json"), map[string]any{
		"name":         "session-hooks-plugin",
		"version":      version,
		"private":      true,
		"description":  "The npm dependency of the session-hooks Claude Code plugin: Claude Code installs it, and with it this platform's session-hooks binary, at the plugin's install.",
		"license":      "MIT",
		"dependencies": map[string]string{"session-hooks": version},
	})
}

// writeFiles writes the named files of files that are there into dir.
func writeFiles(dir string, files map[string][]byte, names ...string) error {
	for _, n := range names {
		if files[n] == nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, n), files[n], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeJSON writes v as npm writes package.json: two spaces, and ">"
// as itself, not \u003e.
func writeJSON(file string, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	return os.WriteFile(file, b.Bytes(), 0o644)
}
