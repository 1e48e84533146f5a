// Package lfs is the Git LFS pointer format (git-lfs's spec/v1): the
// small text git stores in place of a large file's content, "version",
// "oid sha256:…" and "size" lines. Clean computes the pointer that
// `git lfs clean` would hand git, without storing the content anywhere,
// and IsPointer is git-lfs's pointer decoder (decodeKV) as a yes or no.
// The recorded pointers in testdata/ were written by the real git-lfs 3.3
// (testdata/record.sh writes them again).
package lfs
