#!/usr/bin/env bash
# The performance table of the README: whole-process session-hooks against
# whole-process `git status --porcelain` and against the four git commands
# the Node script ran (bench/four-commands.sh), measured side by side in one
# run (alternating runs, medians, peak RSS), on generated repositories of
# issue 20's shapes:
#   large: 30k tracked files in 13k directories, ~1M objects in one pack;
#   flat:  38.5k files in about 405 directories;
#   deep:  4.8k files, 82k commits;
#   small: 100 files.
# and, for each, four states of the work tree:
#   main:      as generated (5 modified files, untracked and ignored files), no upstream;
#   clean:     a clean checkout of main (a linked worktree);
#   ahead-3:   a feature branch 3 commits ahead of its upstream, touching 300 files, dirty;
#   ahead-30:  the same in 30 commits;
#   uc:        the clean checkout with git's untracked cache in its index
#              (git update-index --untracked-cache), which git status keeps.
# init and end read the payloads of a session (bench/payloads.sh).
# The repositories are built once (git fast-import) and kept in $BENCH_DIR.
# SHAPES and STATES choose what to measure; RUNS the timed runs per command.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_DIR:-${TMPDIR:-/tmp}/session-hooks-bench}
runs=${RUNS:-15}
shapes=${SHAPES:-large flat deep small}
states=${STATES:-main clean ahead-3 ahead-30 uc}
mkdir -p "$work"
CGO_ENABLED=0 go build -tags urfave_cli_no_docs -o "$work/session-hooks" . # as the README installs it
go build -o "$work/compare" ./bench/compare
go build -o "$work/genrepo" ./bench/genrepo
cp bench/four-commands.sh "$work/four-commands.sh"
transcript=$work/transcript.jsonl
cp testdata/claude-2.1.330/186971df-3751-4c74-8559-0a238a365e26.jsonl "$transcript"
source bench/payloads.sh
# The floor under the small table: starting a Go program, and a Go program
# that only reads the status with gitdiag.
CGO_ENABLED=0 go build -o "$work/floor-empty" ./bench/floor/empty
CGO_ENABLED=0 go build -o "$work/floor-status" ./bench/floor/status
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com

# feature makes a linked worktree on a branch of main, main as its upstream,
# with n commits touching 300 files between them, then 5 modified files.
feature() {
  local repo=$1 dir=$2 n=$3
  git -C "$repo" worktree add -q -b "$(basename "$dir")" "$dir" main
  git -C "$dir" config "branch.$(basename "$dir").remote" .
  git -C "$dir" config "branch.$(basename "$dir").merge" refs/heads/main
  # 300 files spread over the tree (all of them in a smaller one)
  local total step
  total=$(git -C "$dir" ls-files | wc -l)
  step=$(( total > 300 ? total / 300 : 1 ))
  mapfile -t files < <(git -C "$dir" ls-files | awk -v s="$step" 'NR % s == 0' | head -300)
  local per=$(( (${#files[@]} + n - 1) / n ))
  for ((c = 0; c < n; c++)); do
    for f in "${files[@]:$((c * per)):$per}"; do echo "feature change $c" >> "$dir/$f"; done
    git -C "$dir" commit -qam "feature commit $c" --allow-empty
  done
  for f in "${files[@]:0:5}"; do echo "uncommitted" >> "$dir/$f"; done
}

for shape in $shapes; do
  repo=$work/$shape
  if [ ! -f "$repo.complete" ]; then
    echo "building the $shape repository in $repo (once)..." >&2
    rm -rf "$repo" "$repo"-*
    "$work/genrepo" -size "$shape" "$repo"
    git -C "$repo" worktree add -q --detach "$repo-clean" main
    feature "$repo" "$repo-ahead-3" 3
    feature "$repo" "$repo-ahead-30" 30
    touch "$repo.complete"
  fi
  if [ ! -d "$repo-uc" ]; then
    git -C "$repo" worktree add -q --detach "$repo-uc" main
    git -C "$repo-uc" update-index --untracked-cache
    git -C "$repo-uc" status --porcelain >/dev/null # the first status fills the cache
  fi
done
for shape in $shapes; do
  repo=$work/$shape
  for state in $states; do
    dir=$repo
    [ "$state" = main ] || dir=$repo-$state
    echo
    echo "### $shape, $state ($(git -C "$dir" ls-files | wc -l | tr -d ' ') files, $(git -C "$repo" rev-list --count main) commits)"
    echo
    floor=()
    if [ "$shape" = small ] && [ "$state" = main ]; then
      floor=("$work/floor-empty" "$work/floor-status")
    fi
    payloads "$dir"
    "$work/compare" -dir "$dir" -runs "$runs" \
      'git status --porcelain' "sh $work/four-commands.sh" "$work/session-hooks init <$dir.start.json" "$work/session-hooks end <$dir.end.json" ${floor[@]+"${floor[@]}"}
  done
done
