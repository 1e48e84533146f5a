#!/usr/bin/env bash
# The walk between HEAD and its upstream (gitdiag's AheadBehind, the
# "ahead, behind" of init) against `git rev-list --left-right --count`, side
# by side in one run (bench/compare), on real histories: give it clones or
# mirrors of public repositories (git/git is the one that shows the most).
# Each is cloned once into $BENCH_DIR/walk/<name> and measured in four
# states, each without and with a commit-graph:
#   3000-back:  the upstream 3,000 first-parent commits behind HEAD (a long
#               series merged within one second shows git's stop rule);
#   300-back:   the upstream 300 first-parent commits behind;
#   skewed:     30 commits on HEAD dated years before their parents
#               (imported or rebased work, a wrong clock), upstream 300 back;
#   rebased:    18 commits on HEAD~47, the upstream at HEAD.
# Before timing, each state's counts are compared with git's: a difference
# fails the run. The skewed state is also timed against `git status` on a
# checkout of its branch with the upstream 300 back (the same walk, which
# git status makes for its "ahead" line), in a worktree made once.
#
#   bash bench/aheadbehind.sh ~/src/git ...
#
# RUNS sets the timed runs per command (default 9).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: bash bench/aheadbehind.sh REPOSITORY..." >&2; exit 2; }
work=${BENCH_DIR:-${TMPDIR:-/tmp}/session-hooks-bench}/walk
runs=${RUNS:-9}
mkdir -p "$work"
export PATH="$work:$PATH" # the rows name the commands as people type them
go build -o "$work/compare" ./bench/compare
CGO_ENABLED=0 go build -o "$work/floor-aheadbehind" ./bench/floor/aheadbehind

# commitsOn prints a fast-import stream of n commits on top of from, each
# dated at date (seconds), a second apart.
commitsOn() {
  local from=$1 n=$2 date=$3
  echo "reset refs/heads/bench-walk"
  echo "from $from"
  for ((i = 0; i < n; i++)); do
    printf 'commit refs/heads/bench-walk\ncommitter bench <bench@example.com> %d +0000\ndata 7\nbench %d\n\n' $((date + i)) $((i % 10))
  done
}

# state prints "HEAD UPSTREAM" for a state of the repository.
state() {
  local repo=$1 name=$2 head
  head=$(git -C "$repo" rev-parse HEAD)
  case $name in
  3000-back) echo "$head $(git -C "$repo" rev-parse HEAD~3000)" ;;
  300-back) echo "$head $(git -C "$repo" rev-parse HEAD~300)" ;;
  skewed)
    commitsOn "$head" 30 1100000000 | git -C "$repo" fast-import --quiet --force
    echo "$(git -C "$repo" rev-parse bench-walk) $(git -C "$repo" rev-parse HEAD~300)"
    ;;
  rebased)
    commitsOn "$(git -C "$repo" rev-parse HEAD~47)" 18 "$(date +%s)" | git -C "$repo" fast-import --quiet --force
    echo "$(git -C "$repo" rev-parse bench-walk) $head"
    ;;
  esac
}

for src in "$@"; do
  name=$(basename "$(cd "$src" && git rev-parse --absolute-git-dir)")
  [ "$name" = .git ] || [ "$name" = repo ] && name=$(basename "$(dirname "$(cd "$src" && git rev-parse --absolute-git-dir)")")
  repo=$work/$name
  if [ ! -d "$repo" ]; then
    echo "cloning $src into $repo (once)..." >&2
    git clone -q --no-checkout "$src" "$repo"
  fi
  for graph in without with; do
    rm -rf "$repo/.git/objects/info/commit-graph" "$repo/.git/objects/info/commit-graphs"
    [ $graph = with ] && git -C "$repo" commit-graph write --reachable 2>/dev/null
    for s in 3000-back 300-back skewed rebased; do
      read -r head up < <(state "$repo" "$s")
      git_says=$(git -C "$repo" rev-list --left-right --count "$head...$up")
      we_say=$(cd "$repo" && "$work/floor-aheadbehind" "$head" "$up")
      echo
      echo "### $name, $s, $graph a commit-graph: git says $(echo "$git_says" | tr '\t' ' '), gitdiag $(echo "$we_say" | tr '\t' ' ')"
      echo
      if [ "$git_says" != "$we_say" ]; then
        echo "the counts differ" >&2
        exit 1
      fi
      "$work/compare" -dir "$repo" -runs "$runs" \
        "git rev-list --left-right --count $head...$up" "floor-aheadbehind $head $up"
      if [ "$s" = skewed ]; then
        checkout=$repo-skewed
        if [ ! -d "$checkout" ]; then
          git -C "$repo" worktree add -q -f -B bench-skewed "$checkout" "$head"
        fi
        git -C "$checkout" checkout -q -B bench-skewed "$head"
        git -C "$repo" update-ref refs/heads/bench-base "$up"
        git -C "$checkout" config branch.bench-skewed.remote .
        git -C "$checkout" config branch.bench-skewed.merge refs/heads/bench-base
        echo
        echo "### $name, skewed, $graph a commit-graph, against git status on a checkout"
        echo
        "$work/compare" -dir "$checkout" -runs "$runs" "git status" "floor-aheadbehind $head $up"
      fi
    done
  done
done
