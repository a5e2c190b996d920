// Package httpx holds the HTTP helpers every route shares: one JSON body
// reader, one raw body reader, one JSON and error writer with the one table
// from error code to status, one server-sent-events stream, and the
// server's own limits (NewServer, LimitListener). Domain
// packages never import it; they return *errs.Error and httpx turns that
// into a response.
package httpx

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"tribe/internal/errs"
	"tribe/internal/ratelimit"
)

// statusOf is the one table from error code to HTTP status.
var statusOf = map[string]int{
	errs.Invalid:            http.StatusBadRequest,
	errs.BadJSON:            http.StatusBadRequest,
	errs.InvalidToken:       http.StatusBadRequest,
	errs.InvalidImage:       http.StatusBadRequest,
	errs.Unauthorized:       http.StatusUnauthorized,
	errs.InvalidCredentials: http.StatusUnauthorized,
	errs.Forbidden:          http.StatusForbidden,
	errs.NotFound:           http.StatusNotFound,
	errs.MethodNotAllowed:   http.StatusMethodNotAllowed,
	errs.Conflict:           http.StatusConflict,
	errs.EmailTaken:         http.StatusConflict,
	errs.AlreadyInCohort:    http.StatusConflict,
	errs.CohortFull:         http.StatusConflict,
	errs.NotMember:          http.StatusConflict,
	errs.TooLarge:           http.StatusRequestEntityTooLarge,
	errs.RateLimited:        http.StatusTooManyRequests,
	errs.TooManyStreams:     http.StatusTooManyRequests,
	errs.Unavailable:        http.StatusServiceUnavailable,
	errs.ShuttingDown:       http.StatusServiceUnavailable,
	errs.Internal:           http.StatusInternalServerError,
	errs.AlreadySubscribed:  http.StatusConflict,
	errs.AtCapacity:         http.StatusConflict,
	errs.BillingUnavailable: http.StatusServiceUnavailable,
	errs.NoBillingAccount:   http.StatusNotFound,
	errs.SlotTaken:          http.StatusConflict,
	errs.SoldOut:            http.StatusConflict,
	errs.NoCredit:           http.StatusConflict,
	// OAuth's codes keep the statuses RFC 6749 §5.2 gives them.
	errs.InvalidRequest:          http.StatusBadRequest,
	errs.InvalidClient:           http.StatusUnauthorized,
	errs.InvalidGrant:            http.StatusBadRequest,
	errs.UnsupportedGrantType:    http.StatusBadRequest,
	errs.UnsupportedResponseType: http.StatusBadRequest,
	errs.InvalidScope:            http.StatusBadRequest,
	errs.InvalidTarget:           http.StatusBadRequest,
	errs.AccessDenied:            http.StatusForbidden,
	errs.InsufficientScope:       http.StatusForbidden,
	errs.InvalidRedirectURI:      http.StatusBadRequest,
	errs.InvalidClientMetadata:   http.StatusBadRequest,
}

// Status is the HTTP status for an error code (500 for a code not in the table).
func Status(code string) int {
	if s, ok := statusOf[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// ErrorBody is the JSON shape of every API error.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail is the inside of ErrorBody.
type ErrorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Field names the request field the error is about, when there is one.
	Field string `json:"field,omitempty"`
}

// WriteJSON writes v as a JSON response that no cache keeps.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		slog.Debug("write json response", "err", err)
	}
}

// WriteError answers err: an *errs.Error with its status, code and message,
// and a Retry-After header (whole seconds, rounded up) when it carries
// RetryAfter; anything else as a 500 with a generic message, the error
// itself going to the request's log line (see Recorder). A request whose
// client has gone gets no answer.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	var e *errs.Error
	if !errors.As(err, &e) {
		if r.Context().Err() != nil {
			return // the client went away; nothing to answer
		}
		noteError(w, r, err)
		e = errs.New(errs.Internal, errs.MessageOf(err))
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(ratelimit.RetryAfter(e.RetryAfter)))
	}
	WriteJSON(w, Status(e.Code), ErrorBody{Error: ErrorDetail{Code: e.Code, Message: e.Message, Field: e.Field}})
}
