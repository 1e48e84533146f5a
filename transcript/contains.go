package transcript

import (
	"bytes"
	"context"
	"io"
)

// Contains reports, for each needle, whether the last budget bytes of the
// session file at path hold it (a hook's output, say, which a client
// records in its session file as it injects it). The file is read from
// its end in chunks, each overlapping the next by the longest needle, so
// that memory stays one chunk whatever the file's size.
func Contains(ctx context.Context, path string, needles []string, budget int64) ([]bool, error) {
	found := make([]bool, len(needles))
	f, size, err := Open(path)
	if err != nil {
		return found, err
	}
	defer f.Close()
	longest := 0
	for _, n := range needles {
		longest = max(longest, len(n))
	}
	const chunk = 64 << 10
	start := max(size-budget, 0)
	buf := make([]byte, chunk+longest)
	for end := size; end > start; end -= chunk {
		if err := ctx.Err(); err != nil {
			return found, err
		}
		from := max(end-chunk, start)
		n, err := f.ReadAt(buf[:min(end-from+int64(longest), size-from)], from)
		if err != nil && err != io.EOF {
			return found, err
		}
		for i, needle := range needles {
			found[i] = found[i] || bytes.Contains(buf[:n], []byte(needle))
		}
	}
	return found, nil
}
