#!/usr/bin/env bash
# Mutation testing: prints, per core package, the efficacy (mutants killed
# among the viable ones) and what survived. Not part of .ci/run: a package
# takes from seconds (seal) to most of an hour (gitdiag's status and diff
# stat) on 2 cores.
#
#   scripts/mutation.sh                 every core package
#   scripts/mutation.sh ./internal/sanitize ...  the packages named
#   scripts/mutation.sh gitdiag         gitdiag's status.go and diffstat.go only
#   MUTATION_SINCE=REV scripts/mutation.sh ./hooks
#                                       only the lines changed since REV (gremlins
#                                       --diff, over the whole module: it matches
#                                       no diff given a package), each mutant run
#                                       by scripts/mutants against the package's
#                                       tests (MUTATION_RUN, a go test -run
#                                       pattern, narrows them) and, for hooks,
#                                       settings and transcript, the CLI scripts;
#                                       MUTATION_FILES (file names, comma-
#                                       separated) narrows the files, and
#                                       MUTATION_TIMEOUT (5m) bounds a mutant's run
#
# Packages run gremlins with their own tests (go test -short); the
# survivors in hooks, settings and transcript then meet the CLI scripts
# (testdata/script), which run those packages end to end. gitdiag's
# suite is too slow to run whole for each of its 2,000 mutants: gremlins
# lists the mutants of status.go and diffstat.go (--dry-run) and
# scripts/mutants runs each against the oracle tests of those files.
#
# gremlins is taken from PATH, else installed with go install at the
# version below. The run works on a copy of the module: the source is never
# left mutated.
set -euo pipefail
cd "$(dirname "$0")/.."

version=v0.5.0
if ! command -v gremlins >/dev/null; then
  echo "installing gremlins $version..." >&2
  GOFLAGS= go install "github.com/go-gremlins/gremlins/cmd/gremlins@$version"
  PATH="$(go env GOPATH)/bin:$PATH"
fi
export GOFLAGS=-short

packages=("$@")
if [ ${#packages[@]} -eq 0 ]; then
  packages=(./internal/jsondepth ./internal/seal ./internal/sanitize ./hooks/state ./internal/safefile ./internal/atomicfile ./install/hookfile ./agent/claude/settings
    ./agent/claude ./hooks ./agent/codex gitdiag)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
since=()
if [ -n "${MUTATION_SINCE:-}" ]; then
  # gremlins asks git for the diff in the copy: give it a history.
  git clone -q --shared . "$work"
  since=(--diff "$MUTATION_SINCE")
fi
git ls-files -z | xargs -0 cp --parents -t "$work"

if [ -n "${MUTATION_SINCE:-}" ]; then
  (cd "$work" && gremlins unleash --dry-run "${since[@]}" -o "$work/dry.json" >/dev/null 2>&1)
  for pkg in "${packages[@]}"; do
    cli=()
    case "$pkg" in ./hooks | ./install/hookfile | ./agent/claude/settings | ./agent/claude) cli=(-cli) ;; esac
    echo "$pkg: the mutants of the lines changed since $MUTATION_SINCE"
    (cd "$work" && go run ./scripts/mutants -dry "$work/dry.json" -pkg "$pkg" -module -files "${MUTATION_FILES:-*}" \
      -timeout "${MUTATION_TIMEOUT:-5m}" -run "${MUTATION_RUN:-.}" "${cli[@]}")
  done
  exit 0
fi

for pkg in "${packages[@]}"; do
  if [ "$pkg" = gitdiag ]; then
    (cd "$work" && gremlins unleash --dry-run -o "$work/dry.json" ./gitdiag >/dev/null 2>&1)
    (cd "$work" && go run ./scripts/mutants -dry "$work/dry.json" -pkg ./gitdiag -files diffstat.go \
      -run '^(TestDiffStatMatchesGit|TestDiffStatSaysWhyThereIsNoUpstream|TestDiffStatOfUnrelatedHistoriesIsGitsError|TestRenameCandidatesAreInflatedOnce|TestAheadBehindMatchesGitRevListLeftRightCount|TestRenamesMatchGit)$')
    (cd "$work" && go run ./scripts/mutants -dry "$work/dry.json" -pkg ./gitdiag -files status.go \
      -run '^(TestStatusMatchesGit|TestRepositoryFeaturesMatchGit|TestSameSizeEditWithRestoredMtimeIsModified|TestUntrackedCacheAsGitUsesIt|TestStatusCutByTheDeadlineSaysSoAndReportsNothingDeleted|TestCorruptIndexIsReportedNotMisread|TestSubmodulesMatchGit|TestSparseCheckoutsMatchGit)$')
    continue
  fi
  out=$(cd "$work" && gremlins unleash --workers 1 --timeout-coefficient 5 -o "$work/report.json" "$pkg" 2>&1)
  echo "$out" | grep -E 'LIVED' || true
  printf '%-26s %s\n' "$pkg" "$(echo "$out" | grep -E '^Test efficacy' || echo 'no result')"
  case "$pkg" in
  ./hooks | ./install/hookfile | ./agent/claude/settings | ./agent/claude)
    # The CLI scripts run these packages as Claude Code runs the hooks:
    # each survivor of the package's own tests meets them too.
    echo "$pkg: the survivors against the CLI scripts"
    (cd "$work" && go run ./scripts/mutants -dry "$work/report.json" -pkg "$pkg" -files '*' -status LIVED -cli)
    ;;
  esac
done
