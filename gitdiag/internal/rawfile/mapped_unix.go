//go:build unix

package rawfile

import (
	"os"
	"syscall"
)

// mapFile maps f, or returns nil (an empty or unmappable file is read with
// pread instead).
func mapFile(f *os.File) *region {
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 || fi.Size() != int64(int(fi.Size())) {
		return nil
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	return &region{b: b, f: f}
}

func (r *region) Close() error {
	if r.b == nil {
		return nil
	}
	err := syscall.Munmap(r.b)
	r.b = nil
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	return err
}
