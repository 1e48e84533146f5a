package hooks

import "github.com/session-hooks/session-hooks/hooks/protocol"

// defaultAgent is the adapter of a run given none: the registry's default
// client, set by the package's tests (a command line always names one).
var defaultAgent protocol.Agent

// agent is the run's client's adapter.
func (r *Run) agent() protocol.Agent {
	if r.Agent.Read == nil {
		return defaultAgent
	}
	return r.Agent
}

// budget is the most the run prints for its client.
func (r *Run) budget() int { return r.agent().Limit() }
