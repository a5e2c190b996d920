package insights

import "time"

// The JSON of GET /api/admin/insights (docs/api.md, "Insights"). Money is
// an integer in the smallest unit of Report.Currency (cents); rates are
// fractions (0.25 is 25 %), null where there was nothing to divide by.

// Report is the owner's numbers for a range of days.
type Report struct {
	// From and To are the first and last day (UTC, YYYY-MM-DD), inclusive.
	From string `json:"from"`
	To   string `json:"to"`
	// Currency is the price's currency (lower case, as Stripe writes it) in
	// which every amount here is summed; "" when no membership has a known
	// price yet. Money in other currencies is in OtherCurrencies, never added.
	Currency string `json:"currency"`
	Totals   Totals `json:"totals"`
	// Months are the calendar months the range touches, cut to the range.
	Months []Month `json:"months"`
	// Points are the members, MRR, seats and wait list at the end of each
	// step of the range: every day up to 31 days, every week up to 26
	// weeks, else every month.
	Points          []Point         `json:"points"`
	Sessions        []SessionRate   `json:"sessions"`
	OtherCurrencies []CurrencyTotal `json:"other_currencies"`
	// Unpriced counts paying members whose price the ledger does not know
	// (memberships from before it): `tribe billing reconcile --apply`
	// reads their prices from Stripe.
	Unpriced int `json:"unpriced"`
}

// Totals are the numbers at the end of the range (or now, when the range
// ends later).
type Totals struct {
	// CommittedMRR is active and past-due subscriptions that renew.
	CommittedMRR int64 `json:"committed_mrr"`
	// AtRiskMRR is subscriptions set to cancel at period end: still billed,
	// shown apart. Both are what members pay after discounts; an annual
	// price counts as its twelfth, to the cent.
	AtRiskMRR int64 `json:"at_risk_mrr"`
	// DiscountMRR is what discounts (promotion codes, coupons) take off
	// the list price of those subscriptions a month: list MRR is
	// CommittedMRR + AtRiskMRR + DiscountMRR.
	DiscountMRR   int64 `json:"discount_mrr"`
	Paying        int   `json:"paying"`
	Complimentary int   `json:"complimentary"`
	Free          int   `json:"free"`
	Capacity      int   `json:"capacity"`
	// SeatsLeft is the capacity less members with access and seats held by
	// open checkouts, now.
	SeatsLeft int `json:"seats_left"`
	Waitlist  int `json:"waitlist"`
	// NetNewMRR and the booking sums add up the months of the range.
	NetNewMRR        int64 `json:"net_new_mrr"`
	BookingsGross    int64 `json:"bookings_gross"`
	BookingsRefunded int64 `json:"bookings_refunded"`
	BookingsNet      int64 `json:"bookings_net"`
	// The packages sums add up the months of the range; OneOffNet is
	// BookingsNet + PackagesNet.
	PackagesSold     int   `json:"packages_sold"`
	PackagesRevenue  int64 `json:"packages_revenue"`
	PackagesRefunded int64 `json:"packages_refunded"`
	PackagesNet      int64 `json:"packages_net"`
	OneOffNet        int64 `json:"one_off_net"`
	// CallsMarked are the booked calls of the range the owner marked
	// completed or no-show; NoShows those marked no-show; NoShowRate
	// NoShows / CallsMarked.
	CallsMarked int      `json:"calls_marked"`
	NoShows     int      `json:"no_shows"`
	NoShowRate  *float64 `json:"no_show_rate" tstype:"number | null,required"`
}

// Month is one calendar month of the range (cut to it).
type Month struct {
	// Month is YYYY-MM; Start and End its first and last day in the range.
	Month string `json:"month"`
	Start string `json:"start"`
	End   string `json:"end"`
	// MRR at the start and end of the month, committed and at risk together.
	StartMRR int64 `json:"start_mrr"`
	EndMRR   int64 `json:"end_mrr"`
	// Net new MRR, split: members paying for the first time, members paying
	// again, paying more, paying less (negative), and leaving (negative).
	NewMRR         int64 `json:"new_mrr"`
	ReactivatedMRR int64 `json:"reactivated_mrr"`
	ExpansionMRR   int64 `json:"expansion_mrr"`
	ContractionMRR int64 `json:"contraction_mrr"`
	ChurnedMRR     int64 `json:"churned_mrr"`
	NetNewMRR      int64 `json:"net_new_mrr"`
	// StartPayers are members paying at the start; ChurnedPayers those of
	// any who stopped paying in the month.
	StartPayers   int `json:"start_payers"`
	NewPayers     int `json:"new_payers"`
	ChurnedPayers int `json:"churned_payers"`
	// LogoChurn is ChurnedPayers / StartPayers; RevenueChurn is lost MRR
	// (churned and contraction) / StartMRR.
	LogoChurn    *float64 `json:"logo_churn" tstype:"number | null,required"`
	RevenueChurn *float64 `json:"revenue_churn" tstype:"number | null,required"`
	// One-off revenue from bookings and trainings: paid in the month, refunded
	// in the month, and the difference. Never part of MRR.
	BookingsGross    int64 `json:"bookings_gross"`
	BookingsRefunded int64 `json:"bookings_refunded"`
	BookingsNet      int64 `json:"bookings_net"`
	// Session packages sold in the month (their count and what was really
	// paid), refunded in the month, and the difference. A booking paid with
	// a credit has no payment of its own: a package's money counts once,
	// here. OneOffNet is BookingsNet + PackagesNet. Never part of MRR.
	PackagesSold     int   `json:"packages_sold"`
	PackagesRevenue  int64 `json:"packages_revenue"`
	PackagesRefunded int64 `json:"packages_refunded"`
	PackagesNet      int64 `json:"packages_net"`
	OneOffNet        int64 `json:"one_off_net"`
	WaitlistJoined   int   `json:"waitlist_joined"`
	// ReplaysWatched counts the library's recordings played in the month,
	// once per member and recording however often they came back to it;
	// ReplayViewers the members who played any; ReplaysFinished the
	// recordings members finished in the month.
	ReplaysWatched  int `json:"replays_watched"`
	ReplayViewers   int `json:"replay_viewers"`
	ReplaysFinished int `json:"replays_finished"`
	// The booked calls that started in the month and were marked: all,
	// no-shows, and the no-show rate (null when none were marked).
	CallsMarked int      `json:"calls_marked"`
	NoShows     int      `json:"no_shows"`
	NoShowRate  *float64 `json:"no_show_rate" tstype:"number | null,required"`
}

// Point is the state at the end of a day (Date, UTC).
type Point struct {
	Date          string `json:"date"`
	Paying        int    `json:"paying"`
	Complimentary int    `json:"complimentary"`
	Free          int    `json:"free"`
	CommittedMRR  int64  `json:"committed_mrr"`
	AtRiskMRR     int64  `json:"at_risk_mrr"`
	// DiscountMRR is what discounts take off a month then.
	DiscountMRR int64 `json:"discount_mrr"`
	// SeatsLeft is the capacity less members with access (held seats are
	// not in the history).
	SeatsLeft int `json:"seats_left"`
	// Waitlist is the entries on the list now that had joined by then.
	Waitlist int `json:"waitlist"`
}

// SessionRate is one live session's turnout.
type SessionRate struct {
	ID       string    `json:"id"`
	Title    string    `json:"title"`
	StartsAt time.Time `json:"starts_at"`
	// Members had access when it started; Going said they would come;
	// Present came; PresentGoing came of those going.
	Members      int `json:"members"`
	Going        int `json:"going"`
	Present      int `json:"present"`
	PresentGoing int `json:"present_going"`
	// RSVPRate is Going / Members; AttendanceRate is Present / Members;
	// ShowUpRate is PresentGoing / Going.
	RSVPRate       *float64 `json:"rsvp_rate" tstype:"number | null,required"`
	AttendanceRate *float64 `json:"attendance_rate" tstype:"number | null,required"`
	ShowUpRate     *float64 `json:"show_up_rate" tstype:"number | null,required"`
}

// CurrencyTotal is money in a currency other than the price's, reported
// and not summed: the members paying in it at the end of the range and
// their MRR, and the range's net booking and package revenue in it.
type CurrencyTotal struct {
	Currency    string `json:"currency"`
	Members     int    `json:"members"`
	MRR         int64  `json:"mrr"`
	BookingsNet int64  `json:"bookings_net"`
	PackagesNet int64  `json:"packages_net"`
}
