package content

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // the owner's time zone must resolve on hosts without zoneinfo
)

// LoadZone resolves an IANA time-zone name for the owner's hours and the
// tribe's sessions alike. "Local" and the empty name are refused: no time
// the site shows may depend on the server's own zone. Loaded zones are kept,
// because time.LoadLocation unpacks the zone again on every call (a third
// of a session list's time) and its answer cannot change while the binary runs.
func LoadZone(name string) (*time.Location, error) {
	if name == "" || name == "Local" || strings.ContainsAny(name, " \\") {
		return nil, fmt.Errorf("unknown time zone %q", name)
	}
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("unknown time zone %q: %w", name, err)
	}
	zones.Store(name, loc)
	return loc, nil
}

var zones sync.Map // name -> *time.Location

// ParseHours reads one day's ranges as minutes of the day, [start, end).
// They must be HH:MM (end may be 24:00), each start before its end, in order
// and not overlapping (touching is allowed). On a problem it returns the
// index of the range at fault and what is wrong, in words for the owner.
func ParseHours(ranges []HourRange) (spans [][2]int, at int, problem string) {
	spans = make([][2]int, 0, len(ranges))
	for i, r := range ranges {
		start, ok := clockMinutes(r.Start, false)
		if !ok {
			return nil, i, fmt.Sprintf("start %q must be a time written HH:MM (24-hour)", r.Start)
		}
		end, ok := clockMinutes(r.End, true)
		if !ok {
			return nil, i, fmt.Sprintf("end %q must be a time written HH:MM (24-hour), or 24:00", r.End)
		}
		if end <= start {
			return nil, i, fmt.Sprintf("ends (%s) before it starts (%s)", r.End, r.Start)
		}
		if n := len(spans); n > 0 && start < spans[n-1][1] {
			return nil, i, fmt.Sprintf("starts (%s) before the previous range ends; list ranges in order without overlap", r.Start)
		}
		spans = append(spans, [2]int{start, end})
	}
	return spans, 0, ""
}

// clockMinutes reads HH:MM as minutes after midnight; 24:00 only as an end.
func clockMinutes(s string, end bool) (int, bool) {
	if len(s) != 5 || s[2] != ':' {
		return 0, false
	}
	for _, i := range []int{0, 1, 3, 4} {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	h := int(s[0]-'0')*10 + int(s[1]-'0')
	m := int(s[3]-'0')*10 + int(s[4]-'0')
	switch {
	case m > 59:
		return 0, false
	case h == 24 && m == 0 && end:
		return 24 * 60, true
	case h > 23:
		return 0, false
	}
	return h*60 + m, true
}

// zeroDecimal lists the currencies Stripe counts in whole units (no cents).
var zeroDecimal = map[string]bool{
	"BIF": true, "CLP": true, "DJF": true, "GNF": true, "JPY": true, "KMF": true, "KRW": true, "MGA": true,
	"PYG": true, "RWF": true, "UGX": true, "VND": true, "VUV": true, "XAF": true, "XOF": true, "XPF": true,
}

// MinorUnits converts a price as written in the content (299, 149.50) into
// the currency's smallest unit (29900 cents), the integer every stored
// amount and every Stripe call uses.
func MinorUnits(price float64, currency string) int64 {
	if zeroDecimal[strings.ToUpper(currency)] {
		return int64(price + 0.5)
	}
	return int64(price*100 + 0.5)
}

// DecimalAmount writes an amount in the currency's smallest unit as a plain
// decimal number in the currency's major unit, for files a spreadsheet
// reads: 50000 USD is "500.00", 14950 USD "149.50", 5000 JPY "5000".
func DecimalAmount(amount int64, currency string) string {
	if zeroDecimal[strings.ToUpper(currency)] {
		return strconv.FormatInt(amount, 10)
	}
	sign := ""
	if amount < 0 {
		sign, amount = "-", -amount
	}
	return fmt.Sprintf("%s%d.%02d", sign, amount/100, amount%100)
}

// FormatMinor writes an amount in the currency's smallest unit the way the
// site shows prices (FormatPrice): 29900 USD is "$299", 14950 USD "$149.50".
func FormatMinor(amount int64, currency string) string {
	currency = strings.ToUpper(currency)
	if zeroDecimal[currency] {
		return FormatPrice(float64(amount), currency)
	}
	return FormatPrice(float64(amount)/100, currency)
}
