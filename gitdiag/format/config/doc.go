// Package config is git's configuration format and the order git reads it
// in, transcribed from config.c: comments, quoting, escapes, continuation
// lines, "[section \"Sub\"]" and the older "[section.sub]"; the system,
// global, repository and config.worktree files; include.path and the
// includeIf conditions gitdir:, gitdir/i:, onbranch: and
// hasconfig:remote.*.url:, with git's limits and its fatal messages.
package config
