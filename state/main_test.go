package state

import (
	"testing"

	"github.com/session-hooks/session-hooks/seal/sealtest"
)

func TestMain(m *testing.M) { sealtest.Main(m) }
