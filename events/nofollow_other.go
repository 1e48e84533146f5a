//go:build !unix

package events

const noFollow = 0
