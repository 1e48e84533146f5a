// Package codex holds what session-hooks knows of Codex CLI 0.169.0's
// protocol (see docs/agents.md): for now, its transcript, the "rollout"
// JSONL under $CODEX_HOME/sessions, read into the facts the hooks render
// for Claude Code's transcripts.
package codex
