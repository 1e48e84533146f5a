package safefile

import (
	"errors"
	"io/fs"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// openBeneath opens name below project in one call the kernel confines
// (openat2 with RESOLVE_BENEATH): a link that leads out of the project is
// refused by the kernel itself, where os.Root walks the path one open per
// component, and on a slow file system every open is a wait. ok is false
// where the kernel has no openat2 (before Linux 5.6, or a sandbox that
// forbids it): os.Root answers then.
func openBeneath(project, name string) (f *os.File, ok bool, err error) {
	dir, err := projectDir(project)
	if err != nil {
		return nil, false, nil
	}
	defer dirs.done(project, dir)
	how := unix.OpenHow{Flags: unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NONBLOCK, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS}
	for {
		fd, err := unix.Openat2(dir, name, &how)
		switch {
		case err == unix.EINTR || err == unix.EAGAIN:
			continue
		case err == unix.ENOSYS || err == unix.EPERM:
			return nil, false, nil
		case err == unix.EXDEV:
			return nil, true, &fs.PathError{Op: "open", Path: name, Err: ErrOutside}
		case err != nil:
			return nil, true, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), true, nil
	}
}

// dirs keeps each project's directory open, as roots keeps its os.Root,
// once KeepRoots is called.
var dirs = dirCache{open: map[string]int{}}

type dirCache struct {
	sync.Mutex
	open map[string]int
}

func projectDir(project string) (int, error) {
	dirs.Lock()
	defer dirs.Unlock()
	if fd, ok := dirs.open[project]; ok {
		return fd, nil
	}
	fd, err := unix.Open(project, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, errors.New("the project cannot be opened")
	}
	if keepingRoots() {
		dirs.open[project] = fd
	}
	return fd, nil
}

func (c *dirCache) done(project string, fd int) {
	c.Lock()
	defer c.Unlock()
	if kept, ok := c.open[project]; !ok || kept != fd {
		unix.Close(fd)
	}
}

// forgetDirs closes the kept directories (tests).
func forgetDirs() {
	dirs.Lock()
	defer dirs.Unlock()
	for p, fd := range dirs.open {
		unix.Close(fd)
		delete(dirs.open, p)
	}
}
