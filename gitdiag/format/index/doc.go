// Package index is git's index file (.git/index, read-cache.c): versions
// 2, 3 and 4 (prefix-compressed names), the checksum, the extended flags
// (skip-worktree, intent-to-add), the cache-tree extension, a sparse
// index's directory entries, and a split index (the link extension and its
// EWAH bitmaps, merged as merge_base_index merges them), and the untracked
// cache extension (UNTR, dir.c's read_untracked_extension). Decoding refuses
// what it does not understand by naming it (File.Unsupported) instead of
// guessing.
package index
