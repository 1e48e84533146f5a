package gitdiag

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestRunReportsProbesCutByTheDeadline(t *testing.T) {
	f := newFixture(t)
	block := Probe{"git slow", func(ctx context.Context, r *Repo) (Output, error) {
		time.Sleep(2 * time.Second) // ignores ctx, like a hung file system
		return Output{}, nil
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, _ := Run(ctx, f.dir, []Probe{Branch, block, StatusShort})
	if time.Since(start) > time.Second {
		t.Fatalf("Run waited %s past a 100ms deadline", time.Since(start))
	}
	if res[0].Err != nil || res[0].Lines[0] != "main (no commits yet)" {
		t.Errorf("finished probe lost: %+v", res[0])
	}
	if res[1].Err == nil || !strings.Contains(res[1].Err.Error(), "stopped after") {
		t.Errorf("running probe: %+v", res[1])
	}
	if res[2].Err == nil || !strings.Contains(res[2].Err.Error(), "not run") {
		t.Errorf("later probe: %+v", res[2])
	}
}

func TestRunTurnsAProbePanicIntoAnError(t *testing.T) {
	f := newFixture(t)
	bad := Probe{"git bad", func(context.Context, *Repo) (Output, error) { panic("oops") }}
	res, _ := Run(context.Background(), f.dir, []Probe{bad, Branch})
	if res[0].Err == nil || !strings.Contains(res[0].Err.Error(), "internal error: oops") {
		t.Errorf("got %+v", res[0])
	}
	if res[1].Err != nil {
		t.Errorf("the next probe did not run: %v", res[1].Err)
	}
}

func TestRunOutsideARepositoryFailsEveryProbe(t *testing.T) {
	isolateGit(t)
	res, engine := Run(context.Background(), t.TempDir(), []Probe{Branch, StatusShort})
	if engine != "" {
		t.Errorf("engine %q for a directory that is not a repository", engine)
	}
	for _, r := range res {
		if !errors.Is(r.Err, ErrNotRepository) {
			t.Errorf("%s: %v", r.Command, r.Err)
		}
	}
}
