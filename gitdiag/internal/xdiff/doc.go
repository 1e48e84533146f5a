// Package xdiff counts the lines git's default diff adds and deletes: a
// transcription of the Myers algorithm of git's xdiff (xdiff/xprepare.c
// and xdiff/xdiffi.c, as of git 2.39) with the heuristics that make it
// differ from a minimal diff: lines with no match on the other side, and
// runs of lines matched too often, are set aside before the search
// (xdl_cleanup_records, xdl_clean_mmatch), and the search gives up on
// minimality past a cost (XDL_MAX_COST_MIN, XDL_HEUR_MIN_COST,
// XDL_SNAKE_CNT). A diff stat built on it counts what `git diff --stat`
// counts; a minimal diff counts fewer lines on a few percent of real
// commits.
package xdiff
