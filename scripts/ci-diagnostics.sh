#!/usr/bin/env bash
# session-hooks' git diagnostics as a CI job summary (docs/ci.md): what a
# session start would tell an agent about this checkout (the branch
# against its upstream, an operation in progress and its conflicts,
# uncommitted files, stashes, the latest commits), from
# `session-hooks init --format json`, written as markdown to
# $GITHUB_STEP_SUMMARY (stdout when unset). It fails only on what FAIL_ON
# names, a comma-separated list of:
#   operation      a merge, rebase, cherry-pick, revert, am or bisect in progress
#   conflicted     unmerged paths
#   dirty          uncommitted changes or untracked files
#   behind         commits on the upstream not on this branch
#   diverged       commits on both sides
#   upstream-gone  the upstream branch no longer exists
#   incomplete     a part of git that could not be read
# Needs session-hooks and jq on PATH (GitHub's runners have jq).
set -euo pipefail
conditions="operation conflicted dirty behind diverged upstream-gone incomplete"
IFS=', ' read -r -a fail_on <<<"${FAIL_ON:-}"
for c in "${fail_on[@]}"; do
  case " $conditions " in
  *" $c "*) ;;
  *)
    echo "FAIL_ON: unknown condition '$c'; use any of: ${conditions// /, }" >&2
    exit 2
    ;;
  esac
done
for tool in session-hooks jq; do
  command -v "$tool" >/dev/null || { echo "$tool is not on PATH" >&2; exit 2; }
done

# --no-log: a CI checkout keeps no session log.
facts=$(session-hooks init --no-log --format json </dev/null)

summary=${GITHUB_STEP_SUMMARY:-/dev/stdout}
jq -r '
  def code: "`" + (tostring | gsub("`"; "\u02cb")) + "`";
  def lines(n): if length == 0 then "none" else (.[:n] | map("    " + .) | join("\n")) + (if length > n then "\n    … and \(length - n) more" else "" end) end;
  "## Git: " + (if .start.detached != "" then "detached at " + (.start.detached | code) else (.git.branch | code) end),
  "",
  (if .git.upstream == "" then "No upstream."
   else "Upstream " + (.git.upstream | code) + ": \(.git.ahead // "?") ahead, \(.git.behind // "?") behind." end),
  (if .start.upstream_gone != "" then "The upstream " + (.start.upstream_gone | code) + " is gone." else empty end),
  (.start.operations[] | "**In progress:** " + .kind + ": " + (.text | code)),
  (if (.start.conflicted | length) > 0 then "**Conflicted:**\n\n" + (.start.conflicted | lines(20)) else empty end),
  "",
  "Uncommitted (\(.git.status | length)):\n\n" + (.git.status | lines(20)),
  "",
  "Stashes: \(.start.stashes).",
  "",
  "Latest commits:\n\n" + (.git.commits | lines(5)),
  (if .git.status_incomplete != "" then "\nNot whole: " + (.git.status_incomplete | code) else empty end),
  (.git.probes[] | select(.ok | not) | "\nNot read: " + .command + ": " + (.error | code)),
  ""
' <<<"$facts" >>"$summary"

# check CONDITION MET REASON: a condition met fails the job when FAIL_ON
# names it, with an error annotation (its text escaped as workflow
# commands require: the repository's text cannot start a command).
failed=0
check() {
  local condition=$1 met=$2 reason=$3
  [ "$met" = true ] || return 0
  reason=${reason//'%'/%25}
  reason=${reason//$'\r'/%0D}
  reason=${reason//$'\n'/%0A}
  for c in "${fail_on[@]}"; do
    if [ "$c" = "$condition" ]; then
      echo "::error title=session-hooks $condition::$reason"
      failed=1
    fi
  done
}
q() { jq -r "$1" <<<"$facts"; }
check operation "$(q '.start.operations | length > 0')" "$(q '[.start.operations[] | .kind + ": " + .text] | join("; ")')"
check conflicted "$(q '.start.conflicted | length > 0')" "$(q '.start.conflicted | length') unmerged path(s)"
check dirty "$(q '.git.status | length > 0')" "$(q '.git.status | length') uncommitted change(s)"
check behind "$(q '(.git.behind // 0) > 0')" "$(q '.git.behind') commit(s) behind $(q .git.upstream)"
check diverged "$(q '(.git.ahead // 0) > 0 and (.git.behind // 0) > 0')" "$(q '.git.ahead') ahead and $(q '.git.behind') behind $(q .git.upstream)"
check upstream-gone "$(q '.start.upstream_gone != ""')" "the upstream $(q .start.upstream_gone) is gone"
check incomplete "$(q '.git.status_incomplete != "" or any(.git.probes[]; .ok | not)')" "git could not be read in full"
exit "$failed"
