package web

import (
	"net/http"

	"tribe/internal/booking"
	"tribe/internal/httpx"
)

// The group training's routes, on bookingAPI: the dates a visitor chooses a
// seat from (the seat itself is booked with POST /api/bookings and an
// event_id), and the owner's scheduling, attendee lists and messages.
// docs/api.md ("Group trainings") is their contract.

func (a *bookingAPI) registerEvents(g *registrar) {
	g.route("GET /api/booking/events", anyone, a.listEvents)
	g.route("GET /api/admin/booking/events", admin, a.adminEvents)
	g.route("POST /api/admin/booking/events", admin, a.scheduleEvent)
	g.route("PATCH /api/admin/booking/events/{id}", admin, a.patchEvent)
	g.route("POST /api/admin/booking/events/{id}/move", admin, a.moveEvent)
	g.route("POST /api/admin/booking/events/{id}/cancel", admin, a.cancelEvent)
	g.route("GET /api/admin/booking/events/{id}/attendees", admin, a.attendees)
	g.route("POST /api/admin/booking/events/{id}/message", admin, a.messageAttendees)
}

func (a *bookingAPI) listEvents(w http.ResponseWriter, r *http.Request) error {
	list, err := a.booking.Events(r.Context(), r.URL.Query().Get("type"))
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, EventList{Events: occurrences(list)})
	return nil
}

func (a *bookingAPI) adminEvents(w http.ResponseWriter, r *http.Request) error {
	list, err := a.booking.AdminEvents(r.Context())
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, EventList{Events: occurrences(list)})
	return nil
}

func (a *bookingAPI) scheduleEvent(w http.ResponseWriter, r *http.Request) error {
	var in booking.EventInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	e, err := a.booking.ScheduleEvent(r.Context(), in)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusCreated, EventReply{Event: *e})
	return nil
}

func (a *bookingAPI) patchEvent(w http.ResponseWriter, r *http.Request) error {
	var in EventPatch
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	e, err := a.booking.SetEventSeats(r.Context(), r.PathValue("id"), in.Seats)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, EventReply{Event: *e})
	return nil
}

func (a *bookingAPI) moveEvent(w http.ResponseWriter, r *http.Request) error {
	var in EventMove
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	e, err := a.booking.MoveEvent(r.Context(), r.PathValue("id"), in.Start, in.Duration)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, EventReply{Event: *e})
	return nil
}

func (a *bookingAPI) cancelEvent(w http.ResponseWriter, r *http.Request) error {
	e, refunds, err := a.booking.CancelEvent(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	out := EventCancelled{Event: *e, Refunds: []RefundOwed{}}
	for _, rf := range refunds {
		out.Refunds = append(out.Refunds, *owed(rf))
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

func (a *bookingAPI) attendees(w http.ResponseWriter, r *http.Request) error {
	e, err := a.booking.Event(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	list, err := a.booking.Attendees(r.Context(), e.ID)
	if err != nil {
		return err
	}
	st, err := a.booking.LoadSettings(r.Context())
	if err != nil {
		return err
	}
	out := AttendeeList{Event: *e, Attendees: make([]AdminBookingView, 0, len(list))}
	for _, b := range list {
		v, err := a.adminView(r, b, st, false)
		if err != nil {
			return err
		}
		out.Attendees = append(out.Attendees, v)
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

func (a *bookingAPI) messageAttendees(w http.ResponseWriter, r *http.Request) error {
	var in booking.EventMessage
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	n, err := a.booking.MessageAttendees(r.Context(), r.PathValue("id"), in)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, MessageSent{Sent: n})
	return nil
}

func occurrences(list []*booking.Event) []booking.Event {
	out := make([]booking.Event, len(list))
	for i, e := range list {
		out[i] = *e
	}
	return out
}
