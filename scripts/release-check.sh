#!/usr/bin/env bash
# Checks the release configuration and builds every release binary into
# dist/ without publishing anything: run before tagging a release. Not part
# of .ci/run (it builds six binaries and needs goreleaser).
#
# goreleaser is taken from PATH, else installed with go install at the
# version below (a few minutes the first time).
set -euo pipefail
cd "$(dirname "$0")/.."

version=v2.14.0 # newer ones need Go 1.27 or a module the proxy refuses (go-msix)
if ! command -v goreleaser >/dev/null; then
  echo "installing goreleaser $version..." >&2
  GOFLAGS= go install "github.com/goreleaser/goreleaser/v2@$version"
  PATH="$(go env GOPATH)/bin:$PATH"
fi

goreleaser check
goreleaser release --snapshot --clean --skip=publish

# Every binary is there, static, and runs (the one for this machine).
for target in linux_amd64_v1 linux_arm64_v8.0 darwin_amd64_v1 darwin_arm64_v8.0 windows_amd64_v1 windows_arm64_v8.0; do
  bin=dist/session-hooks_${target}/session-hooks
  [[ $target == windows* ]] && bin+=.exe
  [[ -f $bin ]] || { echo "missing $bin" >&2; exit 1; }
done
file dist/session-hooks_linux_amd64_v1/session-hooks | grep -q 'statically linked' ||
  { echo "the linux binary is not static" >&2; exit 1; }
if [[ "$(uname -s)_$(uname -m)" == Linux_x86_64 ]]; then
  dist/session-hooks_linux_amd64_v1/session-hooks version
fi
(cd dist && sha256sum -c checksums.txt --ignore-missing)

# The plugin's manifest with these builds as its "binaries" (Claude Code
# fetches them at the plugin's install, where it provisions binaries): a
# release commits dist/plugin.json as plugin/.claude-plugin/plugin.json.
cp plugin/.claude-plugin/plugin.json dist/plugin.json
go run ./scripts/pluginbinaries -dist dist -manifest dist/plugin.json
# The npm packages (session-hooks and one per platform), from the archives
# whose checksums checksums.txt gives: a release publishes each directory
# of dist/npm with npm publish, the platforms' first (a snapshot's version
# is a prerelease: npm 11 publishes it only with --tag).
# It also writes dist/plugin/package.json (session-hooks at this version):
# once the packages are published, a release copies it to plugin/, runs
# `npm install --package-lock-only --ignore-scripts` there and commits both
# files, so that Claude Code places the binary at the plugin's install.
mkdir -p dist/plugin
go run ./scripts/npmpackages -dist dist -out dist/npm -plugin dist/plugin
echo "release check passed: dist/ holds the snapshot"
