// Package rawfile opens and reads files with as few system calls as the
// platform allows: on Unix, straight through open(2) and read(2), without
// offering each file to the runtime's network poller (four more calls the
// kernel refuses for regular files anyway), and reading a file whose size
// is known in one read.
package rawfile
