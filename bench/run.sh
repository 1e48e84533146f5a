#!/usr/bin/env bash
# The performance table of the README: whole-process session-hooks against
# whole-process `git status --porcelain`, measured side by side (alternating
# runs, medians, peak RSS) on generated repositories:
#   large: 30k tracked files in 13k directories, ~1M objects in one pack,
#          5 modified files, untracked files and directories, an ignored build/;
#   small: 100 files.
# The repositories are built once (git fast-import) and kept in $BENCH_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_DIR:-${TMPDIR:-/tmp}/session-hooks-bench}
runs=${RUNS:-21}
mkdir -p "$work"
CGO_ENABLED=0 go build -tags urfave_cli_no_docs -o "$work/session-hooks" . # as the README installs it
go build -o "$work/compare" ./bench/compare
go build -o "$work/genrepo" ./bench/genrepo
# The floor under the small table: starting a Go program, and a Go program
# that only reads the status with gitdiag.
CGO_ENABLED=0 go build -o "$work/floor-empty" ./bench/floor/empty
CGO_ENABLED=0 go build -o "$work/floor-status" ./bench/floor/status
for size in large small; do
  if [ ! -f "$work/$size.complete" ]; then
    echo "building the $size repository in $work/$size (once)..." >&2
    rm -rf "$work/$size"
    "$work/genrepo" -size "$size" "$work/$size"
    touch "$work/$size.complete"
  fi
done
for size in large small; do
  echo
  echo "### $size repository ($(git -C "$work/$size" ls-files | wc -l | tr -d ' ') files, $(git -C "$work/$size" count-objects -v | awk '/in-pack/ {print $2}') packed objects)"
  echo
  floor=()
  if [ "$size" = small ]; then
    floor=("$work/floor-empty" "$work/floor-status")
  fi
  "$work/compare" -dir "$work/$size" -runs "$runs" \
    'git status --porcelain' "$work/session-hooks init" "$work/session-hooks end" ${floor[@]+"${floor[@]}"}
done
