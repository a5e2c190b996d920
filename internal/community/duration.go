package community

import (
	"math"
	"strconv"
	"strings"
	"time"

	"tribe/internal/errs"
)

// MaxDuration is the longest session length accepted.
const MaxDuration = 24 * time.Hour

var errDuration = errs.Field("duration", "Duration must read like '2 hours', '1.5 hours' or '45 minutes' (at most 24 hours).")

// ParseDuration reads a session length written for people: "2 hours",
// "1.5 hours", "45 minutes", "90 min", "1 hour 30 minutes", "1h30m", in any
// case. The result is at least a minute and at most MaxDuration; anything
// else is refused, so a session's end can always be computed.
func ParseDuration(s string) (time.Duration, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" || len(s) > 64 {
		return 0, errDuration
	}
	var total float64
	parts := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == ',' || c == '\t':
			i++
			continue
		case strings.HasPrefix(s[i:], "and "):
			if parts == 0 {
				return 0, errDuration
			}
			i += 4
			continue
		case (c < '0' || c > '9') && c != '.':
			return 0, errDuration
		}
		j := i
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
			j++
		}
		// Only plain decimals: ParseFloat alone would also take "1e3", "inf" or "0x1p4".
		num, err := strconv.ParseFloat(s[i:j], 64)
		if err != nil || strings.Count(s[i:j], ".") > 1 || s[i] == '.' {
			return 0, errDuration
		}
		for j < len(s) && s[j] == ' ' {
			j++
		}
		k := j
		for k < len(s) && s[k] >= 'a' && s[k] <= 'z' {
			k++
		}
		unit, ok := durationUnits[s[j:k]]
		if !ok {
			return 0, errDuration
		}
		total += num * float64(unit)
		if total > float64(MaxDuration) {
			return 0, errDuration
		}
		parts++
		i = k
	}
	if parts == 0 {
		return 0, errDuration
	}
	d := time.Duration(math.Round(total/float64(time.Second))) * time.Second
	if d < time.Minute || d > MaxDuration {
		return 0, errDuration
	}
	return d, nil
}

var durationUnits = map[string]time.Duration{
	"h": time.Hour, "hr": time.Hour, "hrs": time.Hour, "hour": time.Hour, "hours": time.Hour,
	"m": time.Minute, "min": time.Minute, "mins": time.Minute, "minute": time.Minute, "minutes": time.Minute,
}
