package transcript

import "testing"

func TestTheTallyKeepsWhatEveryReaderKeeps(t *testing.T) {
	var y Tally
	y.Request("fix the build", "2026-11-27T19:00:00Z")
	y.Request("", "x")                    // no request
	y.Request(HoldHeading+" commit", "x") // a held stop's reason sent back
	y.Model("")
	y.Model("m-1")
	for _, s := range []string{"", "a", "b", "c", "d"} {
		y.Text(s)
	}
	y.Files.Touch("a.go")
	y.Failed(ToolCall{Tool: "bash", Input: "make"}, "boom")
	y.Request("go on", "t2")
	f := y.Finish()
	if f.LastPrompt != "go on" || f.PreviousPrompt != "fix the build" || f.LastPromptAt != "t2" {
		t.Errorf("requests: %q %q %q", f.LastPrompt, f.PreviousPrompt, f.LastPromptAt)
	}
	if f.Usage.Model != "m-1" || len(f.Texts) != 3 || f.Texts[0] != "b" || len(f.FilesTouched) != 1 {
		t.Errorf("model %q, texts %q, files %q", f.Usage.Model, f.Texts, f.FilesTouched)
	}
	if f.OpenError == nil || f.OpenError.Error != "boom" || !f.ErrorBeforeRequest {
		t.Errorf("the error before the request: %+v %v", f.OpenError, f.ErrorBeforeRequest)
	}
	y.Failed(ToolCall{Tool: "bash"}, "again")
	if f := y.Finish(); f.ErrorBeforeRequest {
		t.Error("an error after the request is not behind it")
	}
	y.Succeeded()
	if f := y.Finish(); f.OpenError != nil || f.ErrorBeforeRequest {
		t.Errorf("a success closes it: %+v %v", f.OpenError, f.ErrorBeforeRequest)
	}
}
