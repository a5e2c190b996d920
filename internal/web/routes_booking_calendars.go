package web

import (
	"net/http"

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

// putCalendars replaces the addresses after checking them. It never
// fetches or reads a calendar: a stranger's file is read by the calendar
// worker, which the save wakes, and its outcome shows on the list (the
// admin page polls it while an address waits for its first fetch).
func (a *bookingAPI) putCalendars(w http.ResponseWriter, r *http.Request) error {
	var in booking.CalendarFeedsInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	if err := a.booking.SaveCalendars(r.Context(), in); err != nil {
		return err
	}
	return a.getCalendars(w, r)
}
