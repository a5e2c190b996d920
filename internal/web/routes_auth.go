package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"tribe/internal/auth"
	"tribe/internal/config"
	"tribe/internal/errs"
	"tribe/internal/httpx"
	"tribe/internal/plural"
	"tribe/internal/ratelimit"
)

// authAPI serves the account and session endpoints. Its limits live in
// this process.
type authAPI struct {
	auth   *auth.Service
	cfg    *config.Config
	logger *slog.Logger
	limits authLimits
	// adoptZone saves the browser's time zone as the member's reminder zone
	// when they have none (notify.Service.AdoptTimeZone).
	adoptZone func(ctx context.Context, userID, zone string) (bool, error)
}

func newAuthAPI(cfg *config.Config, svc *auth.Service, logger *slog.Logger, adoptZone func(ctx context.Context, userID, zone string) (bool, error), share shareLimit) *authAPI {
	return &authAPI{auth: svc, cfg: cfg, logger: logger, limits: newAuthLimits(share), adoptZone: adoptZone}
}

// adopt saves the browser's zone for u when it sent one and u has none. A
// failure is logged, not answered: the sign-in itself has succeeded.
func (a *authAPI) adopt(r *http.Request, u *auth.User, zone string) {
	if u == nil || zone == "" || a.adoptZone == nil {
		return
	}
	if _, err := a.adoptZone(r.Context(), u.ID, zone); err != nil {
		a.logger.Warn("time zone not adopted", "user", u.ID, "err", err)
	}
}

func (a *authAPI) register(g *registrar) error {
	g.route("GET /api/auth/session", anyone, a.session)
	g.route("POST /api/auth/signup", anyone, a.signup)
	g.route("POST /api/auth/signin", anyone, a.signin)
	g.route("POST /api/auth/signout", anyone, a.signout)
	g.route("POST /api/auth/password/forgot", anyone, a.forgot)
	g.route("POST /api/auth/password/reset", anyone, a.reset)
	g.route("POST /api/auth/confirm/resend", member, a.resend)
	g.route("GET /auth/confirm", anyone, a.confirm)
	return nil
}

func (a *authAPI) secure() bool { return strings.HasPrefix(a.cfg.BaseURL, "https://") }

// clientOf describes the caller for the session it starts (user agent and address).
func (a *authAPI) clientOf(r *http.Request) auth.Client {
	return auth.Client{UserAgent: r.UserAgent(), IP: clientIP(r, a.cfg.TrustedProxies)}
}

// clientKey is the caller as the rate limits see it (see clientKey).
func (a *authAPI) clientKey(r *http.Request) string {
	return clientKey(r, a.cfg.TrustedProxies)
}

func jsonTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// toUser writes u as the user object of docs/api.md; nil stays nil.
func toUser(u *auth.User) *User {
	if u == nil {
		return nil
	}
	out := &User{
		ID: u.ID, Email: u.Email, EmailConfirmed: u.EmailConfirmed, FullName: u.FullName,
		AvatarURL: u.AvatarURL, IsAdmin: u.IsAdmin, NameUnverified: u.NameUnverified, CreatedAt: jsonTime(u.CreatedAt),
	}
	if sub := u.Subscription; sub != nil {
		out.Subscription = &UserSubscription{Status: sub.Status, CancelAtPeriodEnd: sub.CancelAtPeriodEnd,
			Complimentary: sub.Complimentary, HasSubscriptionID: sub.HasSubscriptionID}
		if sub.CurrentPeriodEnd != nil {
			s := jsonTime(*sub.CurrentPeriodEnd)
			out.Subscription.CurrentPeriodEnd = &s
		}
	}
	return out
}

func (a *authAPI) session(w http.ResponseWriter, r *http.Request) error {
	p, ok := auth.PrincipalFrom(r.Context())
	if !ok {
		httpx.WriteJSON(w, http.StatusOK, SessionBody{})
		return nil
	}
	u, err := a.auth.User(r.Context(), p.UserID)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, SessionBody{User: toUser(u)})
	return nil
}

func (a *authAPI) signup(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		FullName string `json:"full_name"`
		Email    string `json:"email"`
		Password string `json:"password"`
		// TimeZone is the browser's IANA zone, for reminders (optional).
		TimeZone string `json:"time_zone"`
	}
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	if err := limited(limitCheck{a.limits.signupIP, a.clientKey(r)}, limitCheck{a.limits.signupEmail, auth.NormalizeEmail(in.Email)}); err != nil {
		return err
	}
	u, token, err := a.auth.SignUp(r.Context(), auth.SignUpInput{FullName: in.FullName, Email: in.Email, Password: in.Password}, a.clientOf(r))
	if err != nil {
		return err
	}
	a.adopt(r, u, in.TimeZone)
	setSessionCookie(w, token, a.secure())
	httpx.WriteJSON(w, http.StatusCreated, UserBody{User: toUser(u)})
	return nil
}

func (a *authAPI) signin(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Email    string `json:"email"`
		Password string `json:"password"`
		// TimeZone is the browser's IANA zone, for reminders (optional).
		TimeZone string `json:"time_zone"`
	}
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	if err := limited(limitCheck{a.limits.signinIP, a.clientKey(r)}); err != nil {
		return err
	}
	// The back-off is keyed by the address as typed (normalised), account or
	// not, so it says nothing about whether the account exists, and by the
	// client, so failing from elsewhere cannot lock the owner out.
	account, client := auth.NormalizeEmail(in.Email), a.clientKey(r)
	if wait := a.limits.signinAccount.Wait(account, client); wait > 0 {
		return tooMany(wait, fmt.Sprintf("Too many failed sign-ins for this address. Please wait %s and try again.", plural.Count(ratelimit.RetryAfter(wait), "second", "seconds")))
	}
	u, token, err := a.auth.SignIn(r.Context(), in.Email, in.Password, a.clientOf(r))
	if errors.Is(err, auth.ErrInvalidCredentials) {
		a.limits.signinAccount.Fail(account, client)
	}
	if err != nil {
		return err
	}
	a.limits.signinAccount.Succeed(account, client)
	a.adopt(r, u, in.TimeZone)
	setSessionCookie(w, token, a.secure())
	httpx.WriteJSON(w, http.StatusOK, UserBody{User: toUser(u)})
	return nil
}

func (a *authAPI) signout(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Scope string `json:"scope"`
	}
	if err := httpx.ReadJSON(w, r, &in); err != nil && err != httpx.ErrEmptyBody {
		return err
	}
	if in.Scope != "" && in.Scope != "local" && in.Scope != "global" {
		return errs.Field("scope", `Scope must be "local" or "global".`)
	}
	if p, ok := auth.PrincipalFrom(r.Context()); ok {
		if err := a.auth.SignOut(r.Context(), p, in.Scope == "global"); err != nil {
			return err
		}
	}
	clearSessionCookie(w, a.secure())
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// forgotMessage is the one answer to a reset request, account or not.
const forgotMessage = "If an account exists for that address, we've sent a password reset link. Check your email."

func (a *authAPI) forgot(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Email string `json:"email"`
		// RedirectTo is accepted for the spec's payload but not used: the
		// link always opens /auth?reset=true, so mail never points elsewhere.
		RedirectTo string `json:"redirect_to"`
	}
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	email, err := auth.CheckEmail(in.Email)
	if err != nil {
		return err
	}
	if err := limited(limitCheck{a.limits.forgotIP, a.clientKey(r)}, limitCheck{a.limits.forgotEmail, email.Key}); err != nil {
		return err
	}
	if err := a.auth.RequestPasswordReset(r.Context(), email.Mailbox); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusAccepted, MessageBody{Message: forgotMessage})
	return nil
}

func (a *authAPI) reset(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Token    string `json:"token"`
		Password string `json:"password"`
	}
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	if err := limited(limitCheck{a.limits.resetIP, a.clientKey(r)}); err != nil {
		return err
	}
	u, token, err := a.auth.ResetPassword(r.Context(), in.Token, in.Password, a.clientOf(r))
	if err != nil {
		return err
	}
	a.limits.signinAccount.Reset(auth.NormalizeEmail(u.Email))
	setSessionCookie(w, token, a.secure())
	httpx.WriteJSON(w, http.StatusOK, UserBody{User: toUser(u)})
	return nil
}

func (a *authAPI) resend(w http.ResponseWriter, r *http.Request) error {
	p := caller(r)
	if err := limited(limitCheck{a.limits.resendUser, p.UserID}); err != nil {
		return err
	}
	sent, err := a.auth.ResendConfirmation(r.Context(), p.UserID)
	if err != nil {
		return err
	}
	msg := "Your e-mail address is already confirmed."
	if sent {
		msg = "We've sent a new confirmation link to " + p.Email + ". It works for 24 hours."
	}
	httpx.WriteJSON(w, http.StatusAccepted, MessageBody{Message: msg})
	return nil
}

// confirm opens a confirmation link. It answers with a redirect to a page
// that explains the outcome, never with a JSON error: people open it from
// their mail.
func (a *authAPI) confirm(w http.ResponseWriter, r *http.Request) error {
	err := a.auth.ConfirmEmail(r.Context(), r.URL.Query().Get("token"))
	target := "/members?confirmed=true"
	switch {
	case err == nil:
	case errors.Is(err, auth.ErrTokenUsed):
		target = "/auth?confirm_error=used"
	case errors.Is(err, auth.ErrTokenExpired):
		target = "/auth?confirm_error=expired"
	case errors.Is(err, auth.ErrInvalidToken):
		target = "/auth?confirm_error=invalid"
	case errors.Is(err, auth.ErrConfirmNeedsSignIn):
		target = "/auth?confirm_error=signin"
	default:
		a.logger.Error("confirm e-mail address", "err", err)
		target = "/auth?confirm_error=failed"
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, target, http.StatusSeeOther)
	return nil
}
