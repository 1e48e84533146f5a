package events

import (
	"testing"

	"github.com/session-hooks/session-hooks/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }
