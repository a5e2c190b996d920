package web

import (
	"bytes"
	"log/slog"
	"net/http"
	"time"

	"tribe/internal/csvx"
	"tribe/internal/errs"
	"tribe/internal/events"
	"tribe/internal/httpx"
	"tribe/internal/services"
	"tribe/internal/store"
	"tribe/internal/transfer"
	"tribe/internal/waitlist"
)

// transferAPI serves the admins' CSV exports and the members import
// (internal/transfer); docs/api.md ("Exports and import") is the contract.
type transferAPI struct {
	db     *store.DB
	svc    *services.Set
	logger *slog.Logger
	pub    publisher
}

func (a *transferAPI) register(g *registrar) error {
	g.route("GET /api/admin/export/members.csv", admin, a.exportMembers)
	g.route("GET /api/admin/export/ledger.csv", admin, a.exportLedger)
	g.route("GET /api/admin/export/bookings.csv", admin, a.exportBookings)
	g.route("GET /api/admin/export/attendance.csv", admin, a.exportAttendance)
	g.route("GET /api/admin/export/waitlist.csv", admin, a.exportWaitlist)
	g.route("POST /api/admin/import/members", admin, a.importMembers)
	return nil
}

// send writes a table read in full as the download name-DATE.csv.
func (a *transferAPI) send(w http.ResponseWriter, name string, t transfer.Table, err error) error {
	if err != nil {
		return err
	}
	cw := csvx.Respond(w, name+"-"+a.svc.Clock().UTC().Format(time.DateOnly)+".csv")
	// The answer has begun: a failure now can only be logged.
	if err := writeTable(cw, t); err != nil {
		a.logger.Error("export", "file", name, "err", err)
	}
	return nil
}

func writeTable(cw *csvx.Writer, t transfer.Table) error {
	if err := cw.Write(t.Header...); err != nil {
		return err
	}
	for _, rec := range t.Records {
		if err := cw.Write(rec...); err != nil {
			return err
		}
	}
	return cw.Flush()
}

func (a *transferAPI) exportMembers(w http.ResponseWriter, r *http.Request) error {
	t, err := transfer.Members(r.Context(), a.svc.Billing, a.svc.Levels)
	return a.send(w, "members", t, err)
}

func (a *transferAPI) exportLedger(w http.ResponseWriter, r *http.Request) error {
	t, err := transfer.Ledger(r.Context(), a.db)
	return a.send(w, "ledger", t, err)
}

func (a *transferAPI) exportBookings(w http.ResponseWriter, r *http.Request) error {
	t, err := transfer.Bookings(r.Context(), a.svc.Booking)
	return a.send(w, "bookings", t, err)
}

func (a *transferAPI) exportAttendance(w http.ResponseWriter, r *http.Request) error {
	t, err := transfer.Attendance(r.Context(), a.db, a.svc.Clock())
	return a.send(w, "attendance", t, err)
}

func (a *transferAPI) exportWaitlist(w http.ResponseWriter, r *http.Request) error {
	entries, err := transfer.Waitlist(r.Context(), a.db)
	if err != nil {
		return err
	}
	cw := csvx.Respond(w, "waitlist-"+a.svc.Clock().UTC().Format(time.DateOnly)+".csv")
	if err := waitlist.WriteCSV(cw, entries); err != nil {
		a.logger.Error("export", "file", "waitlist", "err", err)
	}
	return nil
}

// importMembers reads the CSV file sent as the whole body; ?dry_run=1 (or
// true) reports without writing.
func (a *transferAPI) importMembers(w http.ResponseWriter, r *http.Request) error {
	dry := false
	switch r.URL.Query().Get("dry_run") {
	case "", "0", "false":
	case "1", "true":
		dry = true
	default:
		return errs.Field("dry_run", "dry_run must be 1 or 0.")
	}
	body, err := httpx.ReadRaw(w, r, transfer.MaxImportBytes)
	if err != nil {
		return err
	}
	im := transfer.Importer{DB: a.db, Auth: a.svc.Auth, Billing: a.svc.Billing, Now: a.svc.Clock}
	rep, err := im.Members(r.Context(), bytes.NewReader(body), dry)
	if err != nil {
		return err
	}
	if !dry && rep.Created+rep.Updated > 0 {
		// Seats taken changed: open pages update their counts.
		a.pub.publish(r.Context(), events.Event{Topic: events.TopicTribe})
	}
	httpx.WriteJSON(w, http.StatusOK, rep)
	return nil
}
