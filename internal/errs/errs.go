// Package errs holds the one error type that every domain package returns for
// a failure a person should read: a code from the API's list, a message
// written for the person, and the field it is about when there is one.
// Anything else that goes wrong is internal and is never shown as is.
package errs

import (
	"errors"
	"fmt"
	"time"
)

// The API's error codes. Each has one HTTP status (httpx keeps that table);
// docs/api.md documents them.
const (
	Invalid            = "invalid"             // bad input; Message names the field
	BadJSON            = "bad_json"            // a body that is not one JSON object
	Unauthorized       = "unauthorized"        // no session
	InvalidCredentials = "invalid_credentials" // wrong address or password
	InvalidToken       = "invalid_token"       // an unknown, used or expired mailed link
	Forbidden          = "forbidden"           // signed in, but not allowed
	NotFound           = "not_found"
	MethodNotAllowed   = "method_not_allowed"
	Conflict           = "conflict"
	EmailTaken         = "email_taken"
	AlreadyInCohort    = "already_in_cohort"
	CohortFull         = "cohort_full"
	NotMember          = "not_member"
	InvalidImage       = "invalid_image"
	TooLarge           = "too_large"
	RateLimited        = "rate_limited"
	TooManyStreams     = "too_many_streams"
	Unavailable        = "unavailable"
	ShuttingDown       = "shutting_down"
	Internal           = "internal"
)

// Billing's refusals.
const (
	AlreadySubscribed  = "already_subscribed"  // checkout by someone who already has access
	AtCapacity         = "at_capacity"         // checkout or a complimentary seat while the tribe is full
	BillingUnavailable = "billing_unavailable" // online payment is not set up
	NoBillingAccount   = "no_billing_account"  // the billing portal for someone who never paid
)

// Booking's refusals.
const (
	SlotTaken = "slot_taken" // the time asked for is no longer free
	SoldOut   = "sold_out"   // an occurrence of a group training has no seat left
	NoCredit  = "no_credit"  // booking with a package credit, and none is left for that type
)

// OAuth's refusals (RFC 6749 §4.1.2.1 and §5.2, RFC 8707): the token
// endpoint answers them in the protocol's own body, the authorization
// endpoint in the redirect back to the client.
const (
	InvalidRequest          = "invalid_request"
	InvalidClient           = "invalid_client"
	InvalidGrant            = "invalid_grant"
	UnsupportedGrantType    = "unsupported_grant_type"
	UnsupportedResponseType = "unsupported_response_type"
	InvalidScope            = "invalid_scope"
	InvalidTarget           = "invalid_target"
	AccessDenied            = "access_denied"
	InsufficientScope       = "insufficient_scope"
	InvalidRedirectURI      = "invalid_redirect_uri"    // RFC 7591 §3.2.2
	InvalidClientMetadata   = "invalid_client_metadata" // RFC 7591 §3.2.2
)

// Codes lists every code above, so that a test can check each has a status.
func Codes() []string {
	return []string{
		Invalid, BadJSON, Unauthorized, InvalidCredentials, InvalidToken, Forbidden, NotFound,
		MethodNotAllowed, Conflict, EmailTaken, AlreadyInCohort, CohortFull, NotMember, InvalidImage, TooLarge,
		RateLimited, TooManyStreams, Unavailable, ShuttingDown, Internal,
		AlreadySubscribed, AtCapacity, BillingUnavailable, NoBillingAccount,
		SlotTaken, SoldOut, NoCredit,
		InvalidRequest, InvalidClient, InvalidGrant, UnsupportedGrantType, UnsupportedResponseType, InvalidScope,
		InvalidTarget, AccessDenied, InsufficientScope, InvalidRedirectURI, InvalidClientMetadata,
	}
}

// Error is a failure with a message for a person.
type Error struct {
	Code    string
	Message string
	Field   string // the JSON field it is about, when there is one
	// RetryAfter, when set, is how long the client should wait before it
	// tries again: the answer carries it as a Retry-After header.
	RetryAfter time.Duration
}

func (e *Error) Error() string { return e.Message }

// After returns a copy of e that tells the client to try again after d, so
// a shared refusal is never changed by the request that uses it.
func (e *Error) After(d time.Duration) *Error {
	c := *e
	c.RetryAfter = d
	return &c
}

// New returns an error with a code and a message for a person.
func New(code, message string) *Error { return &Error{Code: code, Message: message} }

// Errorf returns an error with a code and a formatted message for a person.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Field returns an Invalid error about one input field.
func Field(field, message string) *Error {
	return &Error{Code: Invalid, Message: message, Field: field}
}

// CodeOf is the code of err's *Error, Internal when it has none and "" for nil.
func CodeOf(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// MessageOf is the message a person may read for err: its *Error's message,
// or a generic apology that reveals nothing of an internal failure.
func MessageOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "Something went wrong on our side. Please try again."
}

// Is reports whether err carries the given code.
func Is(err error, code string) bool { return err != nil && CodeOf(err) == code }
