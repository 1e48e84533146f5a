#!/usr/bin/env bash
# Builds the OpenTelemetry Collector of the end-to-end suite
# (e2e/otelcol/builder.yaml) with the collector builder, once: into
# DIR/otelcol-session-hooks, DIR keyed by the configuration's hash, so a
# changed configuration builds anew and an unchanged one costs nothing.
# Prints the binary's path. The first build takes minutes (about 9 on two
# cores with a cold Go cache).
#
#   bash scripts/otelcol.sh [CACHE_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
config=e2e/otelcol/builder.yaml
builder_version=v0.161.0 # the release of every module the configuration names
cache=${1:-${SESSION_HOOKS_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/session-hooks-e2e}}
key=$( (echo "$builder_version"; cat "$config") | sha256sum | cut -c1-12)
dir=$cache/otelcol-$key
bin=$dir/otelcol-session-hooks
if [ ! -x "$bin" ]; then
  mkdir -p "$dir"
  echo "building the OpenTelemetry Collector into $dir (once; minutes)..." >&2
  GOFLAGS= GOBIN="$dir/tools" go install "go.opentelemetry.io/collector/cmd/builder@$builder_version" >&2
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  sed "s|^dist:|dist:\n  output_path: $work/dist|" "$config" > "$work/builder.yaml"
  GOFLAGS= "$dir/tools/builder" --config "$work/builder.yaml" >&2
  mv "$work/dist/otelcol-session-hooks" "$bin.tmp" && mv "$bin.tmp" "$bin"
fi
echo "$bin"
