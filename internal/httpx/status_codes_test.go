package httpx

import (
	"net/http"
	"testing"

	"tribe/internal/errs"
)

// Every error code has its own entry in the status table, and billing's
// refusals answer what docs/billing.md says.
func TestStatusTableCoversEveryErrorCode(t *testing.T) {
	for _, c := range errs.Codes() {
		if _, ok := statusOf[c]; !ok {
			t.Errorf("error code %q has no HTTP status", c)
		}
	}
	for code, want := range map[string]int{
		errs.AlreadySubscribed:  http.StatusConflict,
		errs.AtCapacity:         http.StatusConflict,
		errs.BillingUnavailable: http.StatusServiceUnavailable,
		errs.NoBillingAccount:   http.StatusNotFound,
		errs.SlotTaken:          http.StatusConflict,
		errs.SoldOut:            http.StatusConflict,
	} {
		if got := Status(code); got != want {
			t.Errorf("%s answers %d, want %d", code, got, want)
		}
	}
}
