package gitdiag

// dirEntry is one name in a directory listing, with its type when the file
// system reports it (d_type), so most entries need no stat call.
type dirEntry struct {
	name string
	kind entryKind
}

type entryKind uint8

const (
	kindUnknown entryKind = iota // the file system did not say: stat it
	kindFile
	kindDir
	kindSymlink
	kindOther // FIFO, socket, device: never opened
)

// fileStat is the part of lstat(2) the index records for each file.
type fileStat struct {
	kind                entryKind
	exec                bool // the owner's execute bit
	size                int64
	mtimeSec, mtimeNsec int64
	ctimeSec, ctimeNsec int64
	ino                 uint64
	uid, gid            uint32
	full                bool // ctime, inode and owner are known
}
