package booking

import "time"

// The JSON of session packages and credits (credits.go), for the routes and
// the web app's generated types (tygo.yaml).

// Package is a session package on sale: Count calls of Type, paid once,
// valid for ValidDays days after the payment. Prices are in the currency's
// smallest unit; MemberPrice is 0 when members pay the same.
type Package struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Type        string `json:"type"`
	TypeName    string `json:"type_name"`
	Count       int    `json:"count"`
	Price       int64  `json:"price"`
	MemberPrice int64  `json:"member_price"`
	Currency    string `json:"currency"`
	ValidDays   int    `json:"valid_days"`
	Description string `json:"description"`
}

// PackagesReply answers GET /api/booking/packages. MemberPrices is true
// when the caller is a signed-in tribe member, who pays member prices.
type PackagesReply struct {
	Packages        []Package `json:"packages"`
	MemberPrices    bool      `json:"member_prices"`
	PaymentsEnabled bool      `json:"payments_enabled"`
}

// PackageCheckoutRequest is the body of POST /api/booking/packages/{id}/checkout.
type PackageCheckoutRequest struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

// PackageCheckoutReply is where the buyer pays.
type PackageCheckoutReply struct {
	CheckoutURL string `json:"checkout_url"`
}

// Credit is one package bought, with what is left of it.
type Credit struct {
	Package   string    `json:"package"`    // the package's id
	Name      string    `json:"name"`       // the package's name, as bought
	Type      string    `json:"type"`       // the call type each credit books
	TypeName  string    `json:"type_name"`  // its name
	Count     int       `json:"count"`      // credits bought
	Remaining int       `json:"remaining"`  // credits left to book with
	ExpiresAt time.Time `json:"expires_at"` // the credits lapse at this instant
	// LastDay is the last day a credit can be used (YYYY-MM-DD), on the
	// owner's calendar, as the mails give it: the credits lapse at the end
	// of a day of the owner's zone, which is an odd hour in the visitor's.
	LastDay string `json:"last_day"`
}

// CreditsReply answers GET /api/credits and GET /api/members/me/credits:
// the packages whose credits have not lapsed, soonest to lapse first.
type CreditsReply struct {
	Credits []Credit `json:"credits"`
	Email   string   `json:"email"` // the address the credits belong to
}

// Purchase statuses in the owner's list (PackageSale.Status).
const (
	PurchasePaid     = "paid"     // credits granted and not lapsed
	PurchaseRefunded = "refunded" // the payment was refunded; unspent credits removed
	PurchaseLapsed   = "lapsed"   // the credits' validity ended
)

// PackageSale is one package bought, as the owner sees it in Admin →
// Booking. Amounts are in the currency's smallest unit.
type PackageSale struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`  // the buyer's name
	Email       string    `json:"email"` // the buyer's address
	Package     string    `json:"package"`
	PackageName string    `json:"package_name"` // as bought
	Credits     int       `json:"credits"`      // bought
	Spent       int       `json:"spent"`        // on bookings not cancelled in time
	Left        int       `json:"left"`         // still to book with: 0 once refunded or lapsed
	AmountPaid  int64     `json:"amount_paid"`  // what was really paid, after any promotion code
	Currency    string    `json:"currency"`
	Status      string    `json:"status" tstype:"'paid' | 'refunded' | 'lapsed'"`
	PaidAt      time.Time `json:"paid_at"`
	ExpiresAt   time.Time `json:"expires_at"` // the credits lapse at this instant
}

// PackageSalesReply answers GET /api/admin/booking/packages: the packages
// bought, newest first (at most PackageSalesLimit).
type PackageSalesReply struct {
	Purchases []PackageSale `json:"purchases"`
}
