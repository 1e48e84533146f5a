// Package objects is git's object database as git lays it out: loose
// objects (zlib-compressed "type size NUL content"), pack files with their
// version 2 .idx (ids found where their bytes place them in the sorted
// names, only the entries needed inflated), OFS and REF deltas up to git's chain depth, alternates, and
// the commit and tree object formats; Abbreviator is find_unique_abbrev
// (the shortest unambiguous id, at least core.abbrev's length).
package objects
