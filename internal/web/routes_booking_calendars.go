package web

import (
	"context"
	"net/http"
	"time"

	"tribe/internal/booking"
	"tribe/internal/httpx"
)

// The owner's own calendars as busy time (docs/booking.md, "Your own
// calendar"): the addresses, and how their fetching goes.

func (a *bookingAPI) getCalendars(w http.ResponseWriter, r *http.Request) error {
	list, err := a.booking.Calendars(r.Context())
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, list)
	return nil
}

// putCalendars replaces the addresses and fetches the new ones at once, so
// the owner sees straight away whether an address works. The fetch outlives
// a client that leaves, so its outcome is recorded rather than cut short.
func (a *bookingAPI) putCalendars(w http.ResponseWriter, r *http.Request) error {
	var in booking.CalendarFeedsInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	if err := a.booking.SaveCalendars(r.Context(), in); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 30*time.Second)
	defer cancel()
	if _, err := a.booking.RefreshCalendars(ctx); err != nil {
		a.logger.Warn("calendar refresh after saving", "err", err)
	}
	return a.getCalendars(w, r)
}
