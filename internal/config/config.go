// Package config turns the environment (and an optional .env file) into a
// validated, typed configuration. Every problem is reported as one line that
// says what is wrong and how to fix it.
package config

import (
	"bufio"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"tribe/internal/mailaddr"
)

// Config is the whole configuration of the program.
type Config struct {
	Addr        string // TRIBE_ADDR
	DataDir     string // TRIBE_DATA_DIR
	DatabaseURL string // DATABASE_URL; empty means SQLite in DataDir
	BaseURL     string // TRIBE_BASE_URL, without a trailing slash
	// BaseURLDerived is true when TRIBE_BASE_URL was not set and BaseURL
	// was made from the listen address, so the log can say so.
	BaseURLDerived bool
	ContentDir     string // TRIBE_CONTENT_DIR; empty means the embedded content
	Capacity       int    // TRIBE_CAPACITY
	// GroupChatURL is the members' group-chat invitation (TRIBE_GROUP_CHAT_URL). It is a
	// secret of sorts: only active subscribers and admins are ever sent it.
	GroupChatURL string
	// MetricsToken lets a scraper that is not on this machine read /metrics
	// (TRIBE_METRICS_TOKEN, sent as "Authorization: Bearer ...").
	MetricsToken string
	// TrustedProxies are the reverse proxies whose X-Forwarded-For is believed
	// (TRIBE_TRUSTED_PROXIES); without them every request's peer is the client.
	TrustedProxies []netip.Prefix

	AdminEmails []string // TRIBE_ADMIN_EMAILS, each in its normalised form (mailaddr key)
	AdminDomain string   // TRIBE_ADMIN_DOMAIN, in its IDNA ASCII form, lower case, without "@"

	SMTPURL  string // SMTP_URL; empty means the development mailbox
	SMTPFrom string // SMTP_FROM

	StripeSecretKey     string // STRIPE_SECRET_KEY
	StripeWebhookSecret string // STRIPE_WEBHOOK_SECRET
	StripePriceID       string // STRIPE_PRICE_ID
	StripePriceIDAnnual string // STRIPE_PRICE_ID_ANNUAL
	StripeAPIBase       string // STRIPE_API_BASE

	AIBaseURL        string // AI_BASE_URL
	AIAPIKey         string // AI_API_KEY
	AIModel          string // AI_MODEL
	AIEmbeddingModel string // AI_EMBEDDING_MODEL

	// GoalWidgetURL is an external goal-planning widget script
	// (TRIBE_GOAL_WIDGET_URL) that the goal page and dialog load instead of
	// the built-in planner; the Content-Security-Policy allows its origin.
	GoalWidgetURL string

	// CalendarAllowPrivate lets the owner's calendar addresses name private
	// and loopback hosts and plain http (TRIBE_CALENDAR_ALLOW_PRIVATE): for
	// tests and local development only.
	CalendarAllowPrivate bool

	// PushAllowPrivate lets members' push endpoints be plain http and name
	// private or loopback hosts (TRIBE_PUSH_ALLOW_PRIVATE): for tests and
	// local development only.
	PushAllowPrivate bool

	// SweepInterval is how often the background work runs (TRIBE_SWEEP_INTERVAL):
	// holds lapse, reminders and members' mail are planned and calendars are
	// looked at within this of their time.
	SweepInterval time.Duration

	// LogLevel is the least important log line written (TRIBE_LOG_LEVEL).
	LogLevel slog.Level

	// S3 is the bucket uploaded files are kept in (TRIBE_STORAGE_URL with
	// TRIBE_S3_ACCESS_KEY_ID and TRIBE_S3_SECRET_ACCESS_KEY); nil keeps them
	// in the data directory.
	S3 *S3
	// MaxUpload is the largest library upload in bytes (TRIBE_MAX_UPLOAD:
	// a number of bytes or one with KiB, MiB, GiB or TiB).
	MaxUpload int64
}

// S3 locates a private bucket of an S3-compatible service (AWS S3,
// Cloudflare R2, Garage, SeaweedFS, MinIO, versitygw).
type S3 struct {
	Bucket          string
	Endpoint        string // host[:port]
	Secure          bool   // https
	Region          string
	PathStyle       bool // the bucket in the path rather than the host name
	AccessKeyID     string
	SecretAccessKey string
}

// namedLevel reports whether l is one of slog's four named levels (its
// parser also takes offsets such as "info+2", which no operator means).
func namedLevel(l slog.Level) bool {
	return l == slog.LevelDebug || l == slog.LevelInfo || l == slog.LevelWarn || l == slog.LevelError
}

// Var documents one environment variable.
type Var struct{ Name, Default, Meaning string }

// Vars lists every variable the program reads, for --help and the README.
var Vars = []Var{
	{"TRIBE_ADDR", ":8080", "listen address (host:port)"},
	{"TRIBE_DATA_DIR", "./data", "SQLite file, uploaded files, generated keys"},
	{"TRIBE_STORAGE_URL", "none: uploaded files in the data dir", "s3://BUCKET?endpoint=https://host:port&region=REGION[&path_style=1] keeps uploaded files in a private S3-compatible bucket"},
	{"TRIBE_S3_ACCESS_KEY_ID", "none", "access key of TRIBE_STORAGE_URL's bucket"},
	{"TRIBE_S3_SECRET_ACCESS_KEY", "none", "secret key of TRIBE_STORAGE_URL's bucket"},
	{"DATABASE_URL", "SQLite in the data dir", "postgres://user:pass@host:5432/db selects PostgreSQL"},
	{"TRIBE_BASE_URL", "http://localhost:PORT (the port of TRIBE_ADDR)", "absolute links in e-mail, sitemap, canonical tags, payment return URLs"},
	{"TRIBE_CONTENT_DIR", "embedded content", "the site owner's own content files, read at start"},
	{"TRIBE_CAPACITY", "50", "tribe member cap"},
	{"TRIBE_LOG_LEVEL", "info", "debug, info, warn or error; debug adds a line for each page and file of the web app served successfully"},
	{"TRIBE_METRICS_TOKEN", "none: /metrics answers loopback only", "bearer token that lets a remote Prometheus read /metrics"},
	{"TRIBE_GROUP_CHAT_URL", "none", "the group-chat invitation link, shown to active subscribers only"},
	{"TRIBE_TRUSTED_PROXIES", "none", "comma-separated addresses or CIDR ranges of reverse proxies whose X-Forwarded-For names the client"},
	{"TRIBE_ADMIN_EMAILS", "none", "comma-separated admin addresses (a confirmed address is required), each matching only its own normalised form"},
	{"TRIBE_ADMIN_DOMAIN", "none", "every confirmed address of exactly this domain (in its IDNA ASCII form, no subdomains) is an admin"},
	{"SMTP_URL", "none: development mailbox", "smtp://user:pass@host:587 (STARTTLS when offered) or smtps://host:465"},
	{"SMTP_FROM", "tribe@localhost", "From address of outgoing mail"},
	{"STRIPE_SECRET_KEY", "none: online payment off", "Stripe secret key (sk_…); needs STRIPE_PRICE_ID and STRIPE_WEBHOOK_SECRET"},
	{"STRIPE_WEBHOOK_SECRET", "none", "signing secret (whsec_…) of the webhook endpoint POST /api/billing/webhook"},
	{"STRIPE_PRICE_ID", "none", "the monthly membership price (price_…)"},
	{"STRIPE_PRICE_ID_ANNUAL", "none: monthly only", "the yearly membership price (price_…), offered beside the monthly one"},
	{"STRIPE_API_BASE", "Stripe's API", "another API base, e.g. stripe-mock in tests"},
	{"AI_BASE_URL", "none: offline answers", "OpenAI-compatible API base URL"},
	{"AI_API_KEY", "none", "API key for AI_BASE_URL"},
	{"AI_MODEL", "none", "chat model name"},
	{"TRIBE_GOAL_WIDGET_URL", "none: the built-in goal planner", "an external goal-planning widget script (https, or http on localhost) loaded by /goal and /?goal=true instead"},
	{"TRIBE_MAX_UPLOAD", "4GiB", "the largest library upload (recordings, materials): bytes, or a number with KiB, MiB, GiB or TiB"},
	{"TRIBE_SWEEP_INTERVAL", "30s", "how often background work runs (lapsed holds, reminders, members' mail, calendar refresh), from 1s to 10m"},
	{"TRIBE_CPU_PROFILE", "none", "write a CPU profile of serve to this file until it stops (bench/pgo.sh records the build's cmd/tribe/default.pgo this way)"},
	{"TRIBE_PUSH_ALLOW_PRIVATE", "false", "true lets members' Web Push endpoints be plain http and name private or loopback hosts: for tests and local development only"},
	{"TRIBE_CALENDAR_ALLOW_PRIVATE", "false", "true lets the owner's calendar addresses (Admin → Booking) and assistants' client metadata documents be plain http and name private or loopback hosts: for tests and local development only"},
	{"AI_EMBEDDING_MODEL", "none: full-text search only", "embedding model served at AI_BASE_URL/embeddings, e.g. text-embedding-3-small; adds vector similarity to knowledge-base search"},
}

// Load reads the environment, filling gaps from the .env file at dotenvPath
// when it exists (real environment variables win), and validates the result.
func Load(getenv func(string) string, dotenvPath string) (*Config, error) {
	file, err := readDotenv(dotenvPath)
	if err != nil {
		return nil, err
	}
	get := func(name, def string) string {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return v
		}
		if v := strings.TrimSpace(file[name]); v != "" {
			return v
		}
		return def
	}
	c := &Config{
		Addr:                get("TRIBE_ADDR", ":8080"),
		DataDir:             get("TRIBE_DATA_DIR", "./data"),
		DatabaseURL:         get("DATABASE_URL", ""),
		BaseURL:             strings.TrimRight(get("TRIBE_BASE_URL", ""), "/"),
		ContentDir:          get("TRIBE_CONTENT_DIR", ""),
		GroupChatURL:        get("TRIBE_GROUP_CHAT_URL", ""),
		MetricsToken:        get("TRIBE_METRICS_TOKEN", ""),
		SMTPURL:             get("SMTP_URL", ""),
		SMTPFrom:            get("SMTP_FROM", "tribe@localhost"),
		StripeSecretKey:     get("STRIPE_SECRET_KEY", ""),
		StripeWebhookSecret: get("STRIPE_WEBHOOK_SECRET", ""),
		StripePriceID:       get("STRIPE_PRICE_ID", ""),
		StripePriceIDAnnual: get("STRIPE_PRICE_ID_ANNUAL", ""),
		StripeAPIBase:       get("STRIPE_API_BASE", ""),
		AIBaseURL:           strings.TrimRight(get("AI_BASE_URL", ""), "/"),
		AIAPIKey:            get("AI_API_KEY", ""),
		AIModel:             get("AI_MODEL", ""),
		AIEmbeddingModel:    get("AI_EMBEDDING_MODEL", ""),
		GoalWidgetURL:       get("TRIBE_GOAL_WIDGET_URL", ""),
	}
	if level := get("TRIBE_LOG_LEVEL", "info"); c.LogLevel.UnmarshalText([]byte(level)) != nil || !namedLevel(c.LogLevel) {
		return nil, fmt.Errorf("TRIBE_LOG_LEVEL=%q is not a log level; use debug, info, warn or error", level)
	}
	sweep, err := time.ParseDuration(get("TRIBE_SWEEP_INTERVAL", "30s"))
	if err != nil || sweep < time.Second || sweep > 10*time.Minute {
		return nil, fmt.Errorf("TRIBE_SWEEP_INTERVAL=%q is not a duration from 1s to 10m, such as 30s", get("TRIBE_SWEEP_INTERVAL", ""))
	}
	c.SweepInterval = sweep
	switch v := strings.ToLower(get("TRIBE_CALENDAR_ALLOW_PRIVATE", "false")); v {
	case "true", "1", "yes":
		c.CalendarAllowPrivate = true
	case "false", "0", "no":
	default:
		return nil, fmt.Errorf("TRIBE_CALENDAR_ALLOW_PRIVATE=%q is not true or false; leave it unset in production", v)
	}
	switch v := strings.ToLower(get("TRIBE_PUSH_ALLOW_PRIVATE", "false")); v {
	case "true", "1", "yes":
		c.PushAllowPrivate = true
	case "false", "0", "no":
	default:
		return nil, fmt.Errorf("TRIBE_PUSH_ALLOW_PRIVATE=%q is not true or false; leave it unset in production", v)
	}
	if err := c.readAdmins(get("TRIBE_ADMIN_EMAILS", ""), get("TRIBE_ADMIN_DOMAIN", "")); err != nil {
		return nil, err
	}
	for _, p := range strings.Split(get("TRIBE_TRUSTED_PROXIES", ""), ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		prefix, err := netip.ParsePrefix(p)
		if err != nil {
			addr, aerr := netip.ParseAddr(p)
			if aerr != nil {
				return nil, fmt.Errorf("TRIBE_TRUSTED_PROXIES: %q is not an IP address or CIDR range; give e.g. 10.0.0.0/8,127.0.0.1", p)
			}
			prefix = netip.PrefixFrom(addr.Unmap(), addr.Unmap().BitLen())
		}
		c.TrustedProxies = append(c.TrustedProxies, prefix.Masked())
	}
	capacity := get("TRIBE_CAPACITY", "50")
	c.Capacity, err = strconv.Atoi(capacity)
	if err != nil || c.Capacity < 1 || c.Capacity > 100000 {
		return nil, fmt.Errorf("TRIBE_CAPACITY=%q is not a positive whole number; set it to the member cap, e.g. 50", capacity)
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	if c.MaxUpload, err = parseSize(get("TRIBE_MAX_UPLOAD", "4GiB")); err != nil {
		return nil, fmt.Errorf("TRIBE_MAX_UPLOAD=%q %v; give bytes or a size such as 4GiB or 500MiB", get("TRIBE_MAX_UPLOAD", ""), err)
	}
	if c.S3, err = parseStorageURL(get("TRIBE_STORAGE_URL", ""), get("TRIBE_S3_ACCESS_KEY_ID", ""), get("TRIBE_S3_SECRET_ACCESS_KEY", "")); err != nil {
		return nil, err
	}
	return c, nil
}

// parseSize reads a size in bytes: a whole number, optionally followed by
// KiB, MiB, GiB or TiB (powers of 1024; KB, MB, GB and TB are read the same
// way, as people mean them for file sizes).
func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	mult := int64(1)
	units := []struct {
		suffix string
		mult   int64
	}{{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"TIB", 1 << 40}, {"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"TB", 1 << 40}, {"B", 1}}
	upper := strings.ToUpper(s)
	for _, u := range units {
		if strings.HasSuffix(upper, u.suffix) {
			s, mult = strings.TrimSpace(s[:len(s)-len(u.suffix)]), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, errors.New("is not a positive size")
	}
	if n > (1<<62)/mult {
		return 0, errors.New("is too large")
	}
	return n * mult, nil
}

// bucketName is an S3 bucket name as every provider accepts it.
var bucketName = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`)

// parseStorageURL reads TRIBE_STORAGE_URL and its keys; an empty URL means
// the data directory (nil), and keys without a URL are refused so that a
// half-made setting does not silently keep files on one machine.
func parseStorageURL(raw, keyID, secret string) (*S3, error) {
	const hint = "use s3://BUCKET?endpoint=https://host:port&region=REGION (add &path_style=1 for MinIO, Garage, SeaweedFS)"
	if raw == "" {
		if keyID != "" || secret != "" {
			return nil, errors.New("TRIBE_S3_ACCESS_KEY_ID or TRIBE_S3_SECRET_ACCESS_KEY is set but TRIBE_STORAGE_URL is not; set it (" + hint + ") or unset the keys")
		}
		return nil, nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("TRIBE_STORAGE_URL cannot be parsed (%v); %s", unwrapURLError(err), hint)
	}
	if u.Scheme != "s3" {
		return nil, fmt.Errorf("TRIBE_STORAGE_URL must start with s3://; %s", hint)
	}
	if u.User != nil {
		return nil, errors.New("TRIBE_STORAGE_URL must not carry keys; put them in TRIBE_S3_ACCESS_KEY_ID and TRIBE_S3_SECRET_ACCESS_KEY")
	}
	if u.Path != "" && u.Path != "/" {
		return nil, fmt.Errorf("TRIBE_STORAGE_URL names a path (%q); name only the bucket, %s", u.Path, hint)
	}
	if !bucketName.MatchString(u.Host) || strings.Contains(u.Host, "..") {
		return nil, fmt.Errorf("TRIBE_STORAGE_URL: %q is not a bucket name (3 to 63 lower-case letters, digits, dots and hyphens); %s", u.Host, hint)
	}
	c := &S3{Bucket: u.Host, AccessKeyID: keyID, SecretAccessKey: secret}
	q := u.Query()
	for k := range q {
		if k != "endpoint" && k != "region" && k != "path_style" {
			return nil, fmt.Errorf("TRIBE_STORAGE_URL has an unknown setting %q; %s", k, hint)
		}
	}
	ep, err := url.Parse(q.Get("endpoint"))
	if q.Get("endpoint") == "" || err != nil || (ep.Scheme != "https" && ep.Scheme != "http") || ep.Host == "" || ep.Hostname() == "" ||
		(ep.Path != "" && ep.Path != "/") || ep.RawQuery != "" || ep.User != nil {
		return nil, fmt.Errorf("TRIBE_STORAGE_URL: endpoint=%q is not an http(s) address such as https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:3900; %s", q.Get("endpoint"), hint)
	}
	if p := ep.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("TRIBE_STORAGE_URL: endpoint=%q has an invalid port; %s", q.Get("endpoint"), hint)
		}
	}
	c.Endpoint, c.Secure = ep.Host, ep.Scheme == "https"
	if c.Region = q.Get("region"); c.Region == "" {
		return nil, fmt.Errorf("TRIBE_STORAGE_URL names no region; %s (R2 uses auto, Garage its configured region, e.g. garage)", hint)
	}
	switch q.Get("path_style") {
	case "", "0", "false":
	case "1", "true":
		c.PathStyle = true
	default:
		return nil, fmt.Errorf("TRIBE_STORAGE_URL: path_style=%q is not 1 or 0", q.Get("path_style"))
	}
	if keyID == "" || secret == "" {
		return nil, errors.New("TRIBE_STORAGE_URL is set but TRIBE_S3_ACCESS_KEY_ID or TRIBE_S3_SECRET_ACCESS_KEY is not; give the bucket's access key and secret")
	}
	return c, nil
}

func (c *Config) validate() error {
	if err := checkAddr(c.Addr); err != nil {
		return err
	}
	if c.DatabaseURL != "" {
		if err := checkDatabaseURL(c.DatabaseURL); err != nil {
			return err
		}
	}
	if c.BaseURL == "" {
		c.BaseURL, c.BaseURLDerived = localBaseURL(c.Addr), true
	}
	if err := checkHTTPURL("TRIBE_BASE_URL", c.BaseURL); err != nil {
		return err
	}
	if c.GroupChatURL != "" {
		if u, err := url.Parse(c.GroupChatURL); err != nil || u.Scheme != "https" || u.Host == "" {
			return fmt.Errorf("TRIBE_GROUP_CHAT_URL=%q is not an https link; give the chat's invitation URL, e.g. https://chat.example.com/invite/abc", c.GroupChatURL)
		}
	}
	if c.MetricsToken != "" && len(c.MetricsToken) < 16 {
		return fmt.Errorf("TRIBE_METRICS_TOKEN is too short to keep /metrics private; use at least 16 random characters (e.g. openssl rand -hex 24)")
	}
	if c.SMTPURL != "" {
		u, err := url.Parse(c.SMTPURL)
		if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
			return errors.New("SMTP_URL must look like smtp://user:pass@host:587 or smtps://user:pass@host:465")
		}
	}
	if _, err := mail.ParseAddress(c.SMTPFrom); err != nil {
		return fmt.Errorf("SMTP_FROM=%q is not an e-mail address; use e.g. \"rUv <hello@example.com>\"", c.SMTPFrom)
	}
	if err := c.checkStripe(); err != nil {
		return err
	}
	if c.AIBaseURL != "" {
		if err := checkHTTPURL("AI_BASE_URL", c.AIBaseURL); err != nil {
			return err
		}
	}
	if c.AIEmbeddingModel != "" && c.AIBaseURL == "" {
		return fmt.Errorf("AI_EMBEDDING_MODEL=%q needs AI_BASE_URL, the OpenAI-compatible API that serves it (e.g. https://api.openai.com/v1); set it or unset AI_EMBEDDING_MODEL", c.AIEmbeddingModel)
	}
	if c.GoalWidgetURL != "" {
		if err := checkScriptURL("TRIBE_GOAL_WIDGET_URL", c.GoalWidgetURL); err != nil {
			return err
		}
	}
	if c.ContentDir != "" {
		if st, err := os.Stat(c.ContentDir); err != nil || !st.IsDir() {
			return fmt.Errorf("TRIBE_CONTENT_DIR=%q is not a readable directory; point it at a folder of content JSON files or unset it", c.ContentDir)
		}
	}
	return nil
}

// readAdmins normalises TRIBE_ADMIN_EMAILS and TRIBE_ADMIN_DOMAIN the way
// sign-up normalises addresses (mailaddr), so each names exactly the
// mailboxes (or the one domain) it spells, and refuses what sign-up would.
func (c *Config) readAdmins(emails, domain string) error {
	for _, e := range strings.Split(emails, ",") {
		if e = strings.TrimSpace(e); e == "" {
			continue
		}
		a, err := mailaddr.Parse(e)
		if err != nil {
			return fmt.Errorf("TRIBE_ADMIN_EMAILS: %q is not an address the site accepts (%v); give addresses separated by commas", e, err)
		}
		c.AdminEmails = append(c.AdminEmails, a.Key)
	}
	if domain = strings.TrimPrefix(domain, "@"); domain != "" {
		ascii, err := mailaddr.Domain(domain)
		if err != nil {
			return fmt.Errorf("TRIBE_ADMIN_DOMAIN=%q is not a domain the site accepts (%v); give a domain such as example.com", domain, err)
		}
		c.AdminDomain = ascii
	}
	return nil
}

// localBaseURL is the address a browser on this machine reaches the listen
// address at, so mailed links work for `make run` on any port.
func localBaseURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "0" {
		return "http://localhost:8080"
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

func checkAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("TRIBE_ADDR=%q is not a listen address; use host:port such as :8080 or 127.0.0.1:8080", addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("TRIBE_ADDR=%q has an invalid port; use a number from 1 to 65535, e.g. :8080", addr)
	}
	if host != "" && net.ParseIP(host) == nil && strings.ContainsAny(host, " /") {
		return fmt.Errorf("TRIBE_ADDR=%q has an invalid host; use an IP address or host name, or leave it empty (:8080)", addr)
	}
	return nil
}

func checkDatabaseURL(raw string) error {
	const hint = "use postgres://user:password@host:5432/dbname, or leave DATABASE_URL empty for SQLite"
	if !strings.HasPrefix(raw, "postgres://") && !strings.HasPrefix(raw, "postgresql://") {
		return fmt.Errorf("DATABASE_URL is not a PostgreSQL URL; %s", hint)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("DATABASE_URL cannot be parsed (%v); %s", unwrapURLError(err), hint)
	}
	if u.Hostname() == "" && u.Query().Get("host") == "" {
		return fmt.Errorf("DATABASE_URL names no host; %s", hint)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("DATABASE_URL has an invalid port %q; %s", p, hint)
		}
	}
	if strings.Trim(u.Path, "/") == "" {
		return fmt.Errorf("DATABASE_URL names no database; %s", hint)
	}
	return nil
}

func checkHTTPURL(name, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s=%q is not an absolute http(s) URL; use e.g. https://example.com", name, raw)
	}
	return nil
}

// checkScriptURL accepts the address of a script the pages load from
// another origin: https, or plain http only on this machine (a widget under
// development), since a script fetched over the open network without TLS
// could be replaced on the way. It must be a plain URL: no credentials, and
// nothing a Content-Security-Policy source cannot hold.
func checkScriptURL(name, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil || u.Opaque != "" || strings.ContainsAny(raw, " ;,'\"") {
		return fmt.Errorf("%s=%q is not a script URL; use e.g. https://widgets.example.com/goal.js", name, raw)
	}
	switch host := u.Hostname(); {
	case u.Scheme == "https":
	case u.Scheme == "http" && (host == "localhost" || host == "127.0.0.1" || host == "::1"):
	default:
		return fmt.Errorf("%s=%q must be an https URL (plain http is allowed only on localhost); use e.g. https://widgets.example.com/goal.js", name, raw)
	}
	return nil
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// PrepareDataDir creates the data directory if needed and proves it is
// writable, so a bad directory fails at start instead of on the first upload.
func (c *Config) PrepareDataDir() error {
	const hint = "set TRIBE_DATA_DIR to a directory this user can write"
	if err := os.MkdirAll(c.DataDir, 0o750); err != nil {
		return fmt.Errorf("data directory %s cannot be created (%v); %s", c.DataDir, unwrapPathError(err), hint)
	}
	probe, err := os.CreateTemp(c.DataDir, ".write-check-*")
	if err != nil {
		return fmt.Errorf("data directory %s is not writable (%v); %s", c.DataDir, unwrapPathError(err), hint)
	}
	name := probe.Name()
	_ = probe.Close()
	if err := os.Remove(name); err != nil {
		return fmt.Errorf("data directory %s: cannot remove %s: %w", c.DataDir, filepath.Base(name), err)
	}
	return nil
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// PaymentsEnabled reports whether Stripe is configured (validation makes
// the key, the price and the webhook secret come together).
func (c *Config) PaymentsEnabled() bool { return c.StripeSecretKey != "" && c.StripePriceID != "" }

// MembershipPrice reports whether id is one of the tribe's prices: the
// monthly STRIPE_PRICE_ID or the optional STRIPE_PRICE_ID_ANNUAL.
func (c *Config) MembershipPrice(id string) bool {
	return id != "" && (id == c.StripePriceID || id == c.StripePriceIDAnnual)
}

// EmbeddingsEnabled reports whether an embedding model is configured, which
// turns on vector similarity in knowledge-base search.
func (c *Config) EmbeddingsEnabled() bool { return c.AIBaseURL != "" && c.AIEmbeddingModel != "" }

// checkStripe makes online payment all or nothing: with a secret key, the
// price and the webhook secret are required; without one, neither may be set,
// so a half-configured deployment stops at start instead of silently taking
// no payments.
func (c *Config) checkStripe() error {
	if c.StripeAPIBase != "" {
		if err := checkHTTPURL("STRIPE_API_BASE", c.StripeAPIBase); err != nil {
			return err
		}
	}
	if c.StripeSecretKey == "" {
		for _, v := range []struct{ name, val string }{{"STRIPE_PRICE_ID", c.StripePriceID}, {"STRIPE_PRICE_ID_ANNUAL", c.StripePriceIDAnnual}, {"STRIPE_WEBHOOK_SECRET", c.StripeWebhookSecret}} {
			if v.val != "" {
				return fmt.Errorf("%s is set but STRIPE_SECRET_KEY is not; set the secret key too (sk_live_… or sk_test_…), or unset %s to leave online payment off", v.name, v.name)
			}
		}
		return nil
	}
	if !strings.HasPrefix(c.StripeSecretKey, "sk_") && !strings.HasPrefix(c.StripeSecretKey, "rk_") {
		return errors.New("STRIPE_SECRET_KEY is not a Stripe secret key; copy the sk_live_… or sk_test_… (or restricted rk_…) key from the Stripe dashboard")
	}
	if c.StripePriceID == "" || strings.ContainsAny(c.StripePriceID, " /") {
		return fmt.Errorf("STRIPE_PRICE_ID=%q is not a price id; give the monthly membership price's id, e.g. price_1Nabc…", c.StripePriceID)
	}
	if c.StripePriceIDAnnual != "" && (strings.ContainsAny(c.StripePriceIDAnnual, " /") || c.StripePriceIDAnnual == c.StripePriceID) {
		return fmt.Errorf("STRIPE_PRICE_ID_ANNUAL=%q is not a second price id; give the yearly membership price's id (not the monthly one), or unset it to sell monthly only", c.StripePriceIDAnnual)
	}
	if !strings.HasPrefix(c.StripeWebhookSecret, "whsec_") {
		return errors.New("STRIPE_WEBHOOK_SECRET must be the webhook endpoint's signing secret (whsec_…); see docs/billing.md")
	}
	return nil
}

// AIEnabled reports whether an AI provider is configured.
func (c *Config) AIEnabled() bool { return c.AIBaseURL != "" && c.AIModel != "" }

// readDotenv parses KEY=VALUE lines; "#" starts a comment, "export " is
// ignored and single or double quotes around a value are removed. A missing
// file is not an error.
func readDotenv(path string) (map[string]string, error) {
	out := map[string]string{}
	if path == "" {
		return out, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		key, val, ok := strings.Cut(line, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" || strings.ContainsAny(key, " \t") {
			return nil, fmt.Errorf("%s line %d: expected KEY=VALUE", path, n)
		}
		val = strings.TrimSpace(val)
		if len(val) >= 2 && (val[0] == '"' || val[0] == '\'') && val[len(val)-1] == val[0] {
			val = val[1 : len(val)-1]
		} else if i := strings.Index(val, " #"); i >= 0 {
			val = strings.TrimSpace(val[:i])
		}
		out[key] = val
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return out, nil
}
