# Sourced by bench/real.sh and bench/run.sh. payloads writes, beside dir,
# the SessionStart and SessionEnd payloads Claude Code 2.1.330 gives the
# hooks (testdata/claude-2.1.330/payloads) for a session in dir, with the
# transcript recorded from it ($transcript, copied into the bench
# directory): init and end then read and write the session's state, and
# end reads the transcript, as in a real session.
payloads() {
  local dir=$1 common
  common='"session_id":"bench-session","transcript_path":"'$transcript'","cwd":"'$dir'"'
  printf '{%s,"hook_event_name":"SessionStart","source":"startup"}\n' "$common" > "$dir.start.json"
  printf '{%s,"hook_event_name":"SessionEnd","reason":"other"}\n' "$common" > "$dir.end.json"
}
