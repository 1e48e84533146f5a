package install

import (
	"testing"

	"github.com/session-hooks/session-hooks/internal/testenv"
)

// The doctor's tests write sealed logs: the key is made in a directory of
// the tests', never the user's.
func TestMain(m *testing.M) { testenv.Main(m) }
