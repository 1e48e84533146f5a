package otlp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/internal/sanitize"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/events"
)

// CommandOptions are what `session-hooks export` is given.
type CommandOptions struct {
	Getenv  func(string) string
	Version string
	Now     func() time.Time
	JSON    bool
}

// Report is what the command says, as text or JSON.
type Report struct {
	SchemaVersion int      `json:"schema_version"`
	Endpoint      string   `json:"endpoint"`
	Protocol      string   `json:"protocol"`
	Sent          int      `json:"sent"`
	SentInAll     int      `json:"sent_in_all"`
	Lost          bool     `json:"lost"`
	HooksSend     bool     `json:"hooks_send"` // SESSION_HOOKS_ENABLE_TELEMETRY is on
	Notes         []string `json:"notes"`
}

// RunExport is `session-hooks export`: the backlog of the event log, sent
// now, with the collector's whole timeout. A person asked for it: it sends
// from the oldest event kept when nothing was exported yet, and fails,
// saying why and what waits, when the collector does not take it.
func RunExport(d logs.Dir, opt CommandOptions, w io.Writer) error {
	cfg, notes, err := FromEnv(opt.Getenv, opt.Version)
	if err != nil {
		return err
	}
	if _, err := events.ReadSince(d, events.Position{}, 0); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no %s in %s yet: the hooks have not run here", events.File, d.Path)
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.Timeout)
	defer cancel()
	res, err := Export(ctx, d, Options{Config: cfg, Now: opt.Now, UserAgent: "session-hooks/" + opt.Version})
	if res.Busy {
		return errors.New("another run is sending the events now; try again in a moment")
	}
	if err != nil {
		return exportFailure(d, cfg, res, err)
	}
	if !Enabled(opt.Getenv) {
		notes = append(notes, fmt.Sprintf("the hooks do not send on their own: %s is not 1 in this environment", EnableVar))
	}
	rep := Report{SchemaVersion: 1, Endpoint: cfg.Endpoint, Protocol: cfg.Protocol(), Sent: res.Sent,
		SentInAll: res.State.Sent, Lost: res.Lost, HooksSend: Enabled(opt.Getenv), Notes: append([]string{}, notes...)}
	if opt.JSON {
		b, _ := json.MarshalIndent(rep, "", "  ")
		_, err := fmt.Fprintf(w, "%s\n", sanitize.JSON(b))
		return err
	}
	_, err = io.WriteString(w, sanitize.Clean(rep.text()))
	return err
}

// exportFailure says what failed, what was sent before it, and what
// became of the rest.
func exportFailure(d logs.Dir, cfg Config, res Result, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("the collector did not answer within %s (OTEL_EXPORTER_OTLP_TIMEOUT)", cfg.Timeout)
	}
	msg := sanitize.Clean(err.Error())
	if res.Sent > 0 {
		msg = fmt.Sprintf("sent %s, then: %s", count(res.Sent), msg)
	}
	if res.Dropped > 0 {
		return fmt.Errorf("%s; the collector refused %s for good (a request it cannot read): they are not sent again", msg, count(res.Dropped))
	}
	return fmt.Errorf("%s; what was not sent waits in %s for the next export", msg, filepath.Join(d.Path, events.File))
}

// text is the report for a person.
func (r Report) text() string {
	var b strings.Builder
	if r.Sent > 0 {
		fmt.Fprintf(&b, "Sent %s to %s (%s).\n", count(r.Sent), r.Endpoint, r.Protocol)
	} else {
		fmt.Fprintf(&b, "Nothing to send to %s: every event was sent (%d in all).\n", r.Endpoint, r.SentInAll)
	}
	if r.Lost {
		b.WriteString("Some events were rotated out of the log before they were sent.\n")
	}
	for _, n := range r.Notes {
		b.WriteString("Note: " + n + ".\n")
	}
	return b.String()
}

func count(n int) string {
	if n == 1 {
		return "1 event"
	}
	return fmt.Sprintf("%d events", n)
}
