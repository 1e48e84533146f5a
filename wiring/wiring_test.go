package wiring

import (
	"encoding/json"
	"testing"
)

// A timeout of 0 is none set (null), any other is its seconds.
func TestSecondsIsNullForNone(t *testing.T) {
	if Seconds(0) != nil {
		t.Error("Seconds(0) is not null")
	}
	if s := Seconds(5); s == nil || *s != 5 {
		t.Errorf("Seconds(5) = %v", s)
	}
	b, _ := json.Marshal(Hook{Timeout: Seconds(0)})
	if want := `{"event":"","matcher":"","command":"","timeout_s":null,"ours":false,"exec":false,"trust":"","stands_down":""}`; string(b) != want {
		t.Errorf("a hook without a timeout is %s", b)
	}
}
