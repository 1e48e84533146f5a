package claude

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/transcript"
)

// BenchmarkRead reads transcripts of growing size whose last compaction is
// near the start, so the task list and the TodoWrite are far back: time
// and memory stay flat once the size passes the read budget.
//
//	go test ./agent/claude -run XXX -bench Read -benchmem
func BenchmarkRead(b *testing.B) {
	for _, mib := range []int{1, 8, 64} {
		data := syntheticTranscript(mib << 20)
		b.Run(fmt.Sprintf("%dMiB", mib), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := ReadAt(context.Background(), bytes.NewReader(data), int64(len(data)), transcript.DefaultOptions); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// syntheticTranscript is a session of n bytes: a plan, a compaction, then
// turns of tool calls with large results, texts and prompts.
func syntheticTranscript(n int) []byte {
	var buf bytes.Buffer
	buf.WriteString(call("w0", "TodoWrite", `{"todos":[{"content":"plan","status":"in_progress"}]}`) + "\n")
	buf.WriteString(boundary + "\n")
	big := strings.Repeat("output line of a long tool result\\n", 200)
	for i := 0; buf.Len() < n; i++ {
		id := fmt.Sprintf("t%d", i)
		buf.WriteString(user(fmt.Sprintf("request number %d, please go on", i)) + "\n")
		buf.WriteString(call(id, "Bash", `{"command":"make test"}`) + "\n")
		buf.WriteString(`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"` + id + `","content":"` + big + `"}]}}` + "\n")
		buf.WriteString(call("e"+id, "Edit", `{"file_path":"/p/f.go"}`) + "\n")
		buf.WriteString(answer("e"+id, "ok", false, "") + "\n")
		buf.WriteString(say(fmt.Sprintf("Turn %d is done; the tests pass.", i)) + "\n")
		buf.WriteString(usage(1000+i) + "\n")
	}
	return buf.Bytes()
}
