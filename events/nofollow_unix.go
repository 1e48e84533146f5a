//go:build unix

package events

import "syscall"

// noFollow refuses to open the event log through a symbolic link.
const noFollow = syscall.O_NOFOLLOW
