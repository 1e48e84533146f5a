// Package claude is Claude Code's side of the hook protocol, in one place:
// the payload a hook reads on stdin, the shapes of the replies it may
// print, the size Claude Code accepts, the environment it sets, where its
// settings, transcripts and task lists live, and the shape of a hook entry
// in settings.json. Handlers speak to this package; no other package names
// a Claude Code field, so that a second agent CLI is a sibling package and
// a row in the event table, not a change everywhere.
//
// What is written here was observed with the real Claude Code 2.1.330
// (docs/hook-protocol.md in the shared notes, and the fixtures recorded in
// testdata/claude-2.1.330/); where the public documentation disagrees, the
// binary wins.
//
// Its subpackage transcript reads the session transcript (JSONL) and the
// task list Claude Code persists.
package claude
