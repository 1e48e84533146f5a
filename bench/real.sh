#!/usr/bin/env bash
# session-hooks against git on real repositories, side by side in one run
# (bench/compare: alternating runs, medians, peak RSS). Give it clones (or
# bare mirrors) of public repositories; each is cloned once into
# $BENCH_DIR/real/<name> and measured in four states:
#   clean:    the default branch, checked out as cloned;
#   dirty:    20 tracked files modified and 5 files added, untracked;
#   ahead-30: a feature branch 30 commits ahead of its upstream (the default
#             branch), touching 200 files, with 5 uncommitted changes;
#   uc:       the clean checkout with git's untracked cache in its index
#             (git update-index --untracked-cache), which git status keeps;
#   parallel: ahead-30 and a second worktree 30 commits ahead touching other
#             files, their session starts alternating, as parallel agents'
#             in worktrees do: each start follows the other worktree's.
# Each row: `git status --porcelain`, the four commands the Node script ran
# (bench/four-commands.sh), init, end; on ahead-30 also `git diff --stat`
# against the upstream and gitdiag's alone (bench/floor/diffstat). init and
# end read the payloads Claude Code gives them (a session id, a recorded
# transcript of 320 KB), so that they read and write the session's state as
# in a real session.
#
#   bash bench/real.sh ~/src/cobra ~/src/rails ...
#
# A clean checkout of under 1,000 files also gets the floor under init's
# target there (1.5x git status): a Go program doing nothing
# (bench/floor/empty), one reading the status alone (bench/floor/status),
# this binary doing nothing (version) and init writing nothing (--no-log).
# Their differences are what starting this binary, walking the status and
# writing the logs and the state each cost; docs/performance.md adds them up.
#
# With npm on PATH, the clean state also times the command npm installs
# (the packages scripts/npmpackages makes of this build, installed from
# their tarballs offline): the binary its install script puts in the
# launcher's place, and the launcher itself (--ignore-scripts).
#
# RUNS sets the timed runs per command (default 15); STATES the states.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: bash bench/real.sh REPOSITORY..." >&2; exit 2; }
work=${BENCH_DIR:-${TMPDIR:-/tmp}/session-hooks-bench}/real
runs=${RUNS:-15}
states=${STATES:-clean dirty ahead-30 uc parallel}
mkdir -p "$work"
CGO_ENABLED=0 go build -tags urfave_cli_no_docs -o "$work/session-hooks" . # as the README installs it
go build -o "$work/compare" ./bench/compare
CGO_ENABLED=0 go build -o "$work/floor-diffstat" ./bench/floor/diffstat
CGO_ENABLED=0 go build -o "$work/floor-empty" ./bench/floor/empty
CGO_ENABLED=0 go build -o "$work/floor-status" ./bench/floor/status
cp bench/four-commands.sh "$work/four-commands.sh"
chmod +x "$work/four-commands.sh"
transcript=$work/transcript.jsonl
cp testdata/claude-2.1.330/186971df-3751-4c74-8559-0a238a365e26.jsonl "$transcript"
source bench/payloads.sh
export PATH="$work:$PATH" # the rows name the commands as people type them
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com

# some prints n tracked files spread over the tree (no submodule, no link).
some() {
  local dir=$1 n=$2 total step
  total=$(git -C "$dir" ls-files | wc -l)
  step=$(( total > n ? total / n : 1 ))
  git -C "$dir" -c core.quotePath=false ls-files -s | awk -F'\t' -v s="$step" '$1 !~ /^(160000|120000) / && NR % s == 0 {print $2}' | head -"$n"
}

# dropMissing commits, on the default branch, the removal of the files whose
# blobs a mirror lacks (its largest files may be left out), so that the
# clone checks out; the commit says so.
dropMissing() {
  local repo=$1
  mapfile -t missing < <(git -C "$repo" ls-tree -r HEAD --format='%(objecttype) %(objectname)	%(path)' |
    awk -F'\t' '$1 ~ /^blob / {sub(/^blob /, "", $1); print $1 "\t" $2}' |
    while IFS=$'\t' read -r hash path; do
      printf '%s %s\n' "$hash" "$path"
    done | git -C "$repo" cat-file --batch-check='%(objectname) %(rest)' 2>/dev/null | awk '$2 == "missing" {print $1}')
  [ ${#missing[@]} -gt 0 ] || return 0
  echo "the source lacks ${#missing[@]} blob(s); the clone drops their files in one commit" >&2
  git -C "$repo" ls-tree -r HEAD --format='%(objectname)	%(path)' |
    awk -F'\t' 'NR == FNR {gone[$1] = 1; next} gone[$1] {print $2}' <(printf '%s\n' "${missing[@]}") - |
    git -C "$repo" update-index --force-remove --stdin
  git -C "$repo" commit -q --no-verify -m "bench: drop the files whose blobs the source lacks"
  # The remote branch too, so that the clean checkout is level with it.
  git -C "$repo" update-ref "refs/remotes/origin/$(git -C "$repo" symbolic-ref --short HEAD)" HEAD
}

# feature30 makes worktree dir on a new branch 30 commits ahead of the
# default branch (its upstream), touching 200 files from the n-th on, with
# 5 uncommitted changes.
feature30() {
  local repo=$1 dir=$2 default=$3 from=$4
  git -C "$repo" worktree add -q -b "$(basename "$dir")" "$dir" "$default"
  git -C "$dir" config "branch.$(basename "$dir").remote" .
  git -C "$dir" config "branch.$(basename "$dir").merge" "refs/heads/$default"
  mapfile -t files < <(some "$dir" 400 | tail -n +"$from" | head -200)
  local per=$(( (${#files[@]} + 29) / 30 ))
  for ((c = 0; c < 30; c++)); do
    for f in "${files[@]:$((c * per)):$per}"; do echo "feature change $c" >> "$dir/$f"; done
    git -C "$dir" commit -qam "feature commit $c" --allow-empty --no-verify
  done
  for f in "${files[@]:0:5}"; do echo "uncommitted" >> "$dir/$f"; done
}

# npmCommand installs, once, the npm packages of this build into two
# prefixes (with and without install scripts) and links their commands
# into $work as npm-session-hooks and npm-launcher.
npmCommand() {
  [ -x "$work/npm-session-hooks" ] && [ -x "$work/npm-launcher" ] && return 0
  command -v npm >/dev/null || return 1
  local n=$work/npm version=0.0.0-bench
  rm -rf "$n" && mkdir -p "$n/dist" "$n/stage"
  local archive=session-hooks_${version}_$(go env GOOS)_$(go env GOARCH).tar.gz
  cp "$work/session-hooks" LICENSE README.md "$n/stage/"
  tar czf "$n/dist/$archive" -C "$n/stage" session-hooks LICENSE README.md
  (cd "$n/dist" && sha256sum "$archive" > checksums.txt)
  printf '[{"name":"%s","path":"%s","goos":"%s","goarch":"%s","type":"Archive"}]\n' "$archive" "$n/dist/$archive" "$(go env GOOS)" "$(go env GOARCH)" > "$n/dist/artifacts.json"
  printf '{"version":"%s"}\n' "$version" > "$n/dist/metadata.json"
  local platform
  platform=$(node -p 'process.platform + "-" + process.arch')
  go run ./scripts/npmpackages -dist "$n/dist" -out "$n/pkgs" -only "$platform" -launcher npm/session-hooks.js >&2
  for p in "$n"/pkgs/*; do (cd "$p" && npm pack --silent --pack-destination "$n" >/dev/null); done
  local tarballs=("$n"/session-hooks-"$platform"-$version.tgz "$n"/session-hooks-$version.tgz)
  npm install -g --prefix "$n/scripts" --offline --no-audit --no-fund "${tarballs[@]}" >&2
  npm install -g --prefix "$n/launcher" --offline --no-audit --no-fund --ignore-scripts "${tarballs[@]}" >&2
  ln -sf "$n/scripts/bin/session-hooks" "$work/npm-session-hooks"
  ln -sf "$n/launcher/bin/session-hooks" "$work/npm-launcher"
}

prepare() {
  local src=$1 repo=$2 default
  git clone -q --no-checkout "$src" "$repo"
  git -C "$repo" read-tree HEAD # the index, without the blobs
  dropMissing "$repo"
  git -C "$repo" checkout -q -f HEAD
  default=$(git -C "$repo" symbolic-ref --short HEAD)
  git -C "$repo" worktree add -q --detach "$repo-clean" "$default"
  git -C "$repo" worktree add -q --detach "$repo-dirty" "$default"
  mapfile -t files < <(some "$repo-dirty" 20)
  for f in "${files[@]}"; do echo "a local change" >> "$repo-dirty/$f"; done
  for i in 1 2 3 4 5; do echo "new $i" > "$repo-dirty/bench-untracked-$i.txt"; done
  feature30 "$repo" "$repo-ahead-30" "$default" 1
  git -C "$repo" worktree add -q --detach "$repo-uc" "$default"
  git -C "$repo-uc" update-index --untracked-cache
  git -C "$repo-uc" status --porcelain >/dev/null # the first status fills the cache
  touch "$repo.complete"
}

for src in "$@"; do
  name=$(basename "$(cd "$src" && git rev-parse --show-toplevel 2>/dev/null || git rev-parse --absolute-git-dir)")
  [ "$name" = repo ] || [ "$name" = .git ] && name=$(basename "$(dirname "$(cd "$src" && git rev-parse --absolute-git-dir)")")
  repo=$work/$name
  if [ ! -f "$repo.complete" ]; then
    echo "cloning $src into $repo (once)..." >&2
    rm -rf "$repo" "$repo"-*
    prepare "$src" "$repo"
  fi
  if [ ! -d "$repo-ahead-30b" ]; then # added after the first clones
    feature30 "$repo" "$repo-ahead-30b" "$(git -C "$repo" symbolic-ref --short HEAD)" 201
  fi
  for state in $states; do
    dir=$repo-$state
    [ "$state" = parallel ] && dir=$repo-ahead-30
    echo
    echo "### $name, $state ($(git -C "$dir" ls-files | wc -l | tr -d ' ') files, $(git -C "$dir" rev-list --count HEAD) commits)"
    echo
    extra=()
    if [ "$state" = ahead-30 ]; then
      extra=("git diff --stat @{upstream}...HEAD" "floor-diffstat" "floor-diffstat -nocache")
    fi
    if [ "$state" = clean ] && [ "$(git -C "$dir" ls-files | wc -l)" -lt 1000 ]; then
      extra=("floor-empty" "floor-status" "session-hooks version" "session-hooks init --no-log <$dir.start.json")
    fi
    if [ "$state" = clean ] && npmCommand; then
      extra+=("npm-session-hooks init <$dir.start.json" "npm-launcher init <$dir.start.json")
    fi
    payloads "$dir"
    if [ "$state" = parallel ]; then
      payloads "$repo-ahead-30b"
      "$work/compare" -dir "$dir" -runs "$runs" \
        'git status --porcelain' "session-hooks init <$dir.start.json" "session-hooks init <$repo-ahead-30b.start.json"
      continue
    fi
    "$work/compare" -dir "$dir" -runs "$runs" \
      'git status --porcelain' "four-commands.sh" "session-hooks init <$dir.start.json" "session-hooks end <$dir.end.json" ${extra[@]+"${extra[@]}"}
  done
done
