package opencode

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// A session document is one JSON value that can run to many megabytes
// (tool outputs are kept whole): it is skimmed, never decoded at once.
// skim walks the top-level object and hands over each message of its
// "messages" array in turn, so that memory is bounded by the largest
// message kept, whatever the session's length.
type skim struct {
	r *bufio.Reader
	// pos is how far into the input r is.
	pos func() int64
}

var errShape = errors.New("not a session document")

// next is the next byte that is not JSON white space.
func (s *skim) next() (byte, error) {
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return 0, err
		}
		if c != ' ' && c != '\n' && c != '\r' && c != '\t' {
			return c, nil
		}
	}
}

// value reads the JSON value that starts with first, appending its bytes
// to buf while they fit in max; fits says whether all of it did. It
// checks the nesting and the strings' ends, not every byte's grammar: the
// message's own parse does.
func (s *skim) value(first byte, buf []byte, max int) (out []byte, fits bool, err error) {
	fits = true
	add := func(c byte) {
		if len(buf) < max {
			buf = append(buf, c)
		} else {
			fits = false
		}
	}
	add(first)
	switch first {
	case '"':
		err = s.rest(add, 0, true)
	case '{', '[':
		err = s.rest(add, 1, false)
	default:
		err = s.scalar(add)
	}
	return buf, fits, err
}

// rest reads to the end of a string (inString) or of a container depth
// levels deep.
func (s *skim) rest(add func(byte), depth int, inString bool) error {
	escaped := false
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return fmt.Errorf("%w: cut short", errShape)
		}
		add(c)
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
			if depth == 0 {
				return nil
			}
		case inString:
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth--; depth == 0 {
				return nil
			}
		}
	}
}

// scalar reads the rest of a number, true, false or null.
func (s *skim) scalar(add func(byte)) error {
	for {
		c, err := s.r.ReadByte()
		if err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		switch c {
		case ',', '}', ']', ' ', '\n', '\r', '\t':
			return s.r.UnreadByte()
		}
		add(c)
	}
}

// document walks the top-level object: info gets the "info" value (up to
// maxInfo bytes), message each element of "messages" (up to max bytes;
// fits false for one cut there; start its offset), every other member is
// skipped.
func (s *skim) document(maxInfo, max int, info func([]byte), message func(b []byte, fits bool, start int64) error) error {
	if c, err := s.next(); err != nil || c != '{' {
		return errShape
	}
	for {
		c, err := s.next()
		if err != nil {
			return fmt.Errorf("%w: cut short", errShape)
		}
		if c == '}' {
			return nil
		}
		if c == ',' {
			if c, err = s.next(); err != nil {
				return fmt.Errorf("%w: cut short", errShape)
			}
		}
		key, _, err := s.value(c, nil, 64)
		if err != nil || c != '"' {
			return errShape
		}
		if c, err = s.next(); err != nil || c != ':' {
			return errShape
		}
		if c, err = s.next(); err != nil {
			return errShape
		}
		switch string(key) {
		case `"messages"`:
			if c != '[' {
				return errShape
			}
			if err := s.array(max, message); err != nil {
				return err
			}
		case `"info"`:
			b, fits, err := s.value(c, nil, maxInfo)
			if err != nil {
				return err
			}
			if fits {
				info(b)
			}
		default:
			if _, _, err := s.value(c, nil, 0); err != nil {
				return err
			}
		}
	}
}

// array hands over each element of the array whose '[' was read.
func (s *skim) array(max int, fn func(b []byte, fits bool, start int64) error) error {
	var buf []byte
	for {
		c, err := s.next()
		if err != nil {
			return fmt.Errorf("%w: cut short", errShape)
		}
		switch c {
		case ']':
			return nil
		case ',':
			continue
		}
		start := s.pos() - 1
		b, fits, err := s.value(c, buf[:0], max)
		if err != nil {
			return err
		}
		if err := fn(b, fits, start); err != nil {
			return err
		}
		buf = b
	}
}
