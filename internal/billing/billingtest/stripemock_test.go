package billingtest

import (
	"os"
	"strings"
	"testing"
)

// The install script and the tests name the same stripe-mock release.
func TestStripeMockVersionInStep(t *testing.T) {
	b, err := os.ReadFile("../../../scripts/ensure-stripe-mock.sh")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "version="+StripeMockVersion+"\n") {
		t.Fatalf("scripts/ensure-stripe-mock.sh does not install %s", StripeMockVersion)
	}
}
