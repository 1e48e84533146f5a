# Sourced by bench/real.sh and bench/run.sh. payloads writes, beside dir,
# the SessionStart and SessionEnd payloads Claude Code 2.1.330 gives the
# hooks (testdata/claude-2.1.330/payloads) for a session in dir, with the
# transcript recorded from it ($transcript, copied into the bench
# directory): init and end then read and write the session's state, and
# end reads the transcript, as in a real session. Each init is a new
# session (bench/compare gives "{run}" a number of its own per run), as
# every startup is: it makes its state, claims a number and reads the
# handoff end left; a second start of one session would find its brief
# said already and print nothing.
payloads() {
  local dir=$1 common
  common='"transcript_path":"'$transcript'","cwd":"'$dir'"'
  printf '{"session_id":"bench-{run}",%s,"hook_event_name":"SessionStart","source":"startup"}\n' "$common" > "$dir.start.json"
  printf '{"session_id":"bench-session",%s,"hook_event_name":"SessionEnd","reason":"other"}\n' "$common" > "$dir.end.json"
}
