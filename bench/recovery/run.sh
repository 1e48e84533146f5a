#!/usr/bin/env bash
# Recovery fidelity and cost. Scores `session-hooks pre-compact` with the
# recovery scorer (../shared/recovery/eval.py, which replays transcripts
# cut at 25 points each and compares the snapshot with what a person
# resuming the work would want) on the real-session corpus when it is
# there, and on the project's own recorded fixtures; then times pre-compact
# and measures its peak RSS on generated transcripts of growing size, to
# show that neither grows with the transcript past its read budget.
#
#   bash bench/recovery/run.sh        (CUTS=25 by default)
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${BENCH_DIR:-${TMPDIR:-/tmp}/session-hooks-recovery}
mkdir -p "$work"
CGO_ENABLED=0 go build -tags urfave_cli_no_docs -o "$work/session-hooks" .
shared=../shared/recovery
if [ -f "$shared/eval.py" ]; then
  if [ -d "$shared/corpus" ]; then
    echo "== real sessions ($shared/corpus)"
    python3 "$shared/eval.py" "$work/session-hooks" "$shared/corpus" "${CUTS:-25}"
  fi
  echo "== the project's recorded fixtures (testdata/claude-2.1.330)"
  python3 "$shared/eval.py" "$work/session-hooks" testdata/claude-2.1.330 "${CUTS:-25}"
else
  echo "no scorer at $shared/eval.py: fidelity not measured" >&2
fi

echo "== pre-compact on generated transcripts (median of 5 runs, peak RSS)"
repo="$work/repo"
if [ ! -d "$repo/.git" ]; then
  git init -q -b main "$repo"
  git -C "$repo" -c user.name=b -c user.email=b@e commit -q --allow-empty -m start
fi
printf '| transcript | median | peak RSS |\n|---|---|---|\n'
for mib in 1 16 128; do
  t="$work/t-$mib.jsonl"
  [ -f "$t" ] || python3 - "$t" "$mib" <<'PY'
import json, sys
path, mib = sys.argv[1], int(sys.argv[2])
big = "output line of a long tool result\n" * 200
with open(path, "w") as f:
    f.write(json.dumps({"type": "assistant", "message": {"content": [{"type": "tool_use", "id": "w", "name": "TodoWrite",
        "input": {"todos": [{"content": "plan", "status": "in_progress"}]}}]}}) + "\n")
    i = 0
    while f.tell() < mib << 20:
        f.write(json.dumps({"type": "user", "message": {"content": "request %d, please go on" % i}}) + "\n")
        f.write(json.dumps({"type": "assistant", "message": {"content": [{"type": "tool_use", "id": "t%d" % i, "name": "Bash", "input": {"command": "make test"}}]}}) + "\n")
        f.write(json.dumps({"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": "t%d" % i, "content": big}]}}) + "\n")
        f.write(json.dumps({"type": "assistant", "message": {"content": [{"type": "text", "text": "Turn %d is done." % i}],
            "usage": {"input_tokens": 1000 + i, "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}}}) + "\n")
        i += 1
PY
  payload=$(printf '{"session_id":"bench","transcript_path":"%s","cwd":"%s","hook_event_name":"PreCompact","trigger":"auto"}' "$t" "$repo")
  results=()
  for run in 1 2 3 4 5; do
    results+=("$( { /usr/bin/time -f '%e %M' "$work/session-hooks" pre-compact --no-log <<<"$payload" >/dev/null; } 2>&1 | tail -1)")
  done
  printf '%s\n' "${results[@]}" | sort -n | sed -n 3p | awk -v m="$mib" '{printf "| %d MiB | %.0f ms | %.1f MB |\n", m, $1*1000, $2/1024}'
done
