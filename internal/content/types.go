package content

// The types below mirror the JSON files field by field. Files may carry
// fields these types do not know: the site owner can add data for the pages
// without a server change, and the raw bytes are served unchanged.

// About is about.json: who the consultant is.
type About struct {
	Name        string      `json:"name"`
	Handle      string      `json:"handle"`
	Title       string      `json:"title"`
	Tagline     string      `json:"tagline"`
	Summary     string      `json:"summary"`
	Approach    string      `json:"approach"`
	Website     string      `json:"website"`
	Expertise   []string    `json:"expertise"`
	PACT        PACT        `json:"pact"`
	Philosophy  []Principle `json:"philosophy"`
	Clients     []Client    `json:"clients"`
	ClientsNote string      `json:"clients_note"`
	Biography   []string    `json:"biography"`
	Followers   []Follower  `json:"followers"`
}

// PACT defines agentics: Proactive, Autonomous, Collaborative, Targeted.
type PACT struct {
	Summary    string       `json:"summary"`
	Principles []PACTLetter `json:"principles"`
}

// PACTLetter is one word of PACT with its one-line meaning.
type PACTLetter struct {
	Name    string `json:"name"`
	Meaning string `json:"meaning"`
}

// Principle is one philosophy card.
type Principle struct {
	Title       string `json:"title"`
	Description string `json:"description"`
}

// Client is one entry of the clients and institutions grid.
type Client struct {
	Name   string `json:"name"`
	Sector string `json:"sector"`
}

// Follower is a follower badge; Count is display text such as "60K+".
type Follower struct {
	Platform string `json:"platform"`
	Count    string `json:"count"`
	Label    string `json:"label"`
	URL      string `json:"url"`
}

// Services is services.json: everything that has a price.
type Services struct {
	Currency string           `json:"currency"`
	Sessions []Session        `json:"sessions"`
	Training []TrainingOption `json:"training"`
	// Packages are sessions sold ahead, several at once: paid once, each
	// gives credits that book one call of their type without Checkout.
	Packages     []Package    `json:"packages"`
	NeuralTrader NeuralTrader `json:"neural_trader"`
	Tribe        TribeOffer   `json:"tribe"`
	HowItWorks   []Step       `json:"how_it_works"`
	FAQ          []FAQ        `json:"faq"`
	// Availability is where the booking calendar starts: the owner's time
	// zone and weekly hours until the owner saves settings of their own.
	Availability Availability `json:"availability"`
}

// NativeBooking is the value of a type's "booking" field that makes the site
// take the booking itself (calendar, hold, payment, invitation) instead of
// sending the visitor to booking_link.
const NativeBooking = "native"

// InquiryBooking is the value of a training option's "booking" field that
// makes its button open the site's inquiry form (the enterprise package: a
// conversation, not a time on a calendar).
const InquiryBooking = "inquiry"

// Availability is the booking calendar's default: the owner's IANA time zone
// and, per lower-case weekday name, the ranges of hours bookable that day.
type Availability struct {
	TimeZone    string                 `json:"time_zone"`
	WeeklyHours map[string][]HourRange `json:"weekly_hours"`
}

// HourRange is a span of one day on the owner's clock, "09:00" to "17:00";
// End may be "24:00", the end of the day.
type HourRange struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// Session is a one-to-one session; Duration is in minutes, Price in
// Currency (the file's currency when empty). Booking is NativeBooking when
// the site books it, else empty and BookingLink is where visitors book.
type Session struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Duration    int      `json:"duration"`
	Price       float64  `json:"price"`
	MemberPrice float64  `json:"member_price"` // what a tribe member pays; 0 is none
	Currency    string   `json:"currency"`
	Description string   `json:"description"`
	Booking     string   `json:"booking"`
	BookingLink string   `json:"booking_link"`
	Features    []string `json:"features"`
	Popular     bool     `json:"popular"`
}

// BookAt is where a visitor books the session: the site's own page when the
// site books it, else BookingLink (empty while bookings are paused).
func (s Session) BookAt(baseURL string) string {
	return bookAt(baseURL, s.ID, s.Booking, s.BookingLink)
}

// TrainingOption is a Neural Trader training card. Its mixed field-name
// style (originalPrice next to booking_link) is the original's, kept so the
// pages and the console read the same names the specification gives.
// Duration is display text ("2 hours"); a natively booked option also gives
// DurationMinutes, the length of the call it books. Seats makes a natively
// booked option seated: the owner schedules occurrences (Seats is their
// default size) and visitors buy one seat of one.
type TrainingOption struct {
	ID              string   `json:"id"`
	Title           string   `json:"title"`
	Subtitle        string   `json:"subtitle"`
	Price           float64  `json:"price"`
	MemberPrice     float64  `json:"member_price"` // what a tribe member pays; 0 is none
	Currency        string   `json:"currency"`
	OriginalPrice   float64  `json:"originalPrice"`
	Duration        string   `json:"duration"`
	DurationMinutes int      `json:"duration_minutes"`
	Seats           int      `json:"seats"`
	Booking         string   `json:"booking"`
	Capacity        string   `json:"capacity"`
	Features        []string `json:"features"`
	BookingLink     string   `json:"booking_link"`
	ButtonText      string   `json:"button_text"`
	IsPopular       bool     `json:"isPopular"`
	IsLimitedTime   bool     `json:"isLimitedTime"`
}

// Package is a number of calls of one natively booked type sold at once:
// Count credits, each booking one call of Type, valid for ValidDays days
// after the payment. MemberPrice (0 for none) is what a tribe member pays.
type Package struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Type        string  `json:"type"`
	Count       int     `json:"count"`
	Price       float64 `json:"price"`
	MemberPrice float64 `json:"member_price"`
	Currency    string  `json:"currency"`
	ValidDays   int     `json:"valid_days"`
	Description string  `json:"description"`
}

// BookAt is where a visitor books the option, as Session.BookAt.
func (t TrainingOption) BookAt(baseURL string) string {
	return bookAt(baseURL, t.ID, t.Booking, t.BookingLink)
}

func bookAt(baseURL, id, booking, link string) string {
	switch booking {
	case NativeBooking:
		return baseURL + "/book/" + id
	case InquiryBooking:
		return baseURL + "/booking" // the inquiry form is on the booking page
	}
	return link
}

// NeuralTrader is the console's summary of the training offer.
type NeuralTrader struct {
	Name              string            `json:"name"`
	Description       string            `json:"description"`
	GroupSessions     GroupSessions     `json:"group_sessions"`
	PrivateTraining   PrivateTraining   `json:"private_training"`
	EnterprisePackage EnterprisePackage `json:"enterprise_package"`
	IncludedBenefits  []string          `json:"included_benefits"`
	BookingInfo       string            `json:"booking_info"`
}

// GroupSessions summarises group training.
type GroupSessions struct {
	Price    float64 `json:"price"`
	Duration string  `json:"duration"`
	Capacity string  `json:"capacity"`
}

// PrivateTraining summarises one-on-one training.
type PrivateTraining struct {
	Price float64 `json:"price"`
	Note  string  `json:"note"`
}

// EnterprisePackage summarises the enterprise package.
type EnterprisePackage struct {
	Price       float64 `json:"price"`
	Description string  `json:"description"`
}

// TribeOffer is the paid community membership.
type TribeOffer struct {
	Name             string   `json:"name"`
	Summary          string   `json:"summary"`
	PriceMonthly     float64  `json:"price_monthly"`
	Currency         string   `json:"currency"`
	Billing          string   `json:"billing"`
	SessionCadence   string   `json:"session_cadence"`
	SessionLength    string   `json:"session_length"`
	CohortSize       string   `json:"cohort_size"`
	Capacity         int      `json:"capacity"`
	Features         []string `json:"features"`
	WhatYouWillBuild []string `json:"what_you_will_build"`
}

// Step is one step of the booking page's how-it-works strip.
type Step struct {
	Title       string `json:"title"`
	Description string `json:"description"`
}

// FAQ is one question and its answer.
type FAQ struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
}

// Projects is projects.json.
type Projects struct {
	Featured []Project    `json:"featured"`
	Projects []Project    `json:"projects"`
	Stats    ProjectStats `json:"stats"`
}

// Project is one project card. Icon is a lucide icon name in kebab case;
// Page, when set, is the site's own showcase page for the project.
type Project struct {
	ID          string   `json:"id"`
	Icon        string   `json:"icon"`
	Name        string   `json:"name"`
	Badge       string   `json:"badge"`
	Description string   `json:"description"`
	URL         string   `json:"url"`
	Page        string   `json:"page"`
	Tags        []string `json:"tags"`
}

// ProjectStats holds the repository figures shown as text.
type ProjectStats struct {
	TotalRepositories        int    `json:"total_repositories"`
	TotalRepositoriesDisplay string `json:"total_repositories_display"`
	GitHubURL                string `json:"github_url"`
	NPMURL                   string `json:"npm_url"`
}

// Stack is stack.json: tools grouped by category.
type Stack struct {
	Categories []StackCategory `json:"categories"`
}

// StackCategory is one group of tools.
type StackCategory struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Tools       []Tool `json:"tools"`
}

// Tool is one entry of the stack.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	URL         string `json:"url"`
}

// Contact is contact.json.
type Contact struct {
	Name           string         `json:"name"`
	Email          string         `json:"email"`
	BookingURL     string         `json:"booking_url"`
	Website        string         `json:"website"`
	Message        string         `json:"message"`
	OnlinePresence OnlinePresence `json:"online_presence"`
}

// OnlinePresence groups the social profile links.
type OnlinePresence struct {
	Links SocialLinks `json:"links"`
}

// SocialLinks are the profiles the footer and the console link to.
type SocialLinks struct {
	LinkedIn string `json:"linkedin"`
	GitHub   string `json:"github"`
	YouTube  string `json:"youtube"`
	X        string `json:"x"`
}

// Resources is mcp/resources.json, the list the console's resources/list
// command and the starter kit read.
type Resources struct {
	Resources []Resource `json:"resources"`
}

// Resource is one readable resource; URI is a path on this site.
type Resource struct {
	URI         string `json:"uri"`
	MIME        string `json:"mime"`
	Title       string `json:"title"`
	Description string `json:"description"`
}
