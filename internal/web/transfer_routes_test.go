package web

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
	"tribe/internal/transfer"
)

// importCSV posts a members file; dry adds ?dry_run=1.
func (m *testSite) importCSV(u testUser, file string, dry bool) (reply, transfer.ImportReport) {
	m.t.Helper()
	path := "/api/admin/import/members"
	if dry {
		path += "?dry_run=1"
	}
	r := m.call(u, "POST", path, upload{body: []byte(file), contentType: "text/csv"})
	var rep transfer.ImportReport
	if r.status == 200 {
		if err := json.Unmarshal([]byte(r.body), &rep); err != nil {
			m.t.Fatalf("report: %v: %s", err, r.body)
		}
	}
	return r, rep
}

// readCSV parses an export, checking RFC 4180's CRLF on every line.
func readCSV(t *testing.T, r reply) [][]string {
	t.Helper()
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/csv; charset=utf-8") ||
		!strings.HasPrefix(r.header.Get("Content-Disposition"), `attachment; filename="`) {
		t.Fatalf("export: %d %v %.300s", r.status, r.header, r.body)
	}
	if !strings.HasSuffix(r.body, "\r\n") || strings.Count(r.body, "\n") != strings.Count(r.body, "\r\n") {
		t.Fatalf("every line must end in CRLF: %q", r.body)
	}
	recs, err := csv.NewReader(strings.NewReader(r.body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// byEmail keys an export's records by their email column, keeping cols.
func byEmail(t *testing.T, recs [][]string, cols ...string) map[string]string {
	t.Helper()
	at := map[string]int{}
	for i, h := range recs[0] {
		at[h] = i
	}
	out := map[string]string{}
	for _, rec := range recs[1:] {
		var parts []string
		for _, c := range cols {
			i, ok := at[c]
			if !ok {
				t.Fatalf("no column %s in %q", c, recs[0])
			}
			parts = append(parts, c+"="+rec[i])
		}
		out[rec[at["email"]]] = strings.Join(parts, " ")
	}
	return out
}

// TestExportThenImportIntoAnEmptySiteReproducesMembersAndStates: moving a
// tribe must not lose who is complimentary until when, nor the Stripe link
// (imports elsewhere have dropped paid state); a name that starts like a
// formula is neutralised in the file and comes back as it was.
func TestExportThenImportIntoAnEmptySiteReproducesMembersAndStates(t *testing.T) {
	t.Parallel()
	for _, e := range storetest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			urlA, dirA := e.New(t)
			a := newTestSite(t, storetest.Open(t, urlA, dirA), membersEnv())
			adminA := a.user(membersAdminEmail)
			free := a.user("free@example.com")
			a.exec(`UPDATE profiles SET full_name = '=HYPERLINK("http://evil")' WHERE id = $1`, free.id)
			forever := a.user("forever@example.com")
			until := a.user("until@example.com")
			payer := a.user("payer@example.com")
			for id, body := range map[string]any{forever.id: map[string]any{"until": nil}, until.id: map[string]any{"until": "2099-06-30"}} {
				if r := a.call(adminA, "PUT", "/api/admin/members/"+id+"/complimentary", body); r.status != 200 {
					t.Fatalf("comp: %d %s", r.status, r.body)
				}
			}
			a.subscribe(payer, "active")
			a.exec(`UPDATE subscriptions SET stripe_subscription_id = 'sub_1', stripe_customer_id = 'cus_Payer1' WHERE user_id = $1`, payer.id)

			exported := readCSV(t, a.call(adminA, "GET", "/api/admin/export/members.csv", nil))
			if strings.Join(exported[0], ",") != strings.Join(transfer.MembersHeader, ",") {
				t.Fatalf("header %q", exported[0])
			}
			if got := byEmail(t, exported, "full_name")["free@example.com"]; got != `full_name='=HYPERLINK("http://evil")` {
				t.Errorf("formula name exported as %s", got)
			}
			file := a.call(adminA, "GET", "/api/admin/export/members.csv", nil).body

			urlB, dirB := e.New(t)
			b := newTestSite(t, storetest.Open(t, urlB, dirB), membersEnv())
			adminB := b.user(membersAdminEmail)
			r, rep := b.importCSV(adminB, file, false)
			if r.status != 200 || rep.Created != 4 || rep.Unchanged != 1 || len(rep.Refused) != 0 {
				t.Fatalf("import: %d %+v %s", r.status, rep, r.body)
			}
			again := readCSV(t, b.call(adminB, "GET", "/api/admin/export/members.csv", nil))
			cols := []string{"full_name", "complimentary", "complimentary_until", "stripe_customer_id", "level"}
			want, got := byEmail(t, exported, cols...), byEmail(t, again, cols...)
			states := []string{"status", "has_access"}
			wantState, gotState := byEmail(t, exported, states...), byEmail(t, again, states...)
			for email, w := range want {
				if got[email] != w {
					t.Errorf("%s: %s, want %s", email, got[email], w)
				}
				// A paying member's subscription is Stripe's: it comes back
				// through the linked customer (webhooks, reconcile).
				if email != "payer@example.com" && gotState[email] != wantState[email] {
					t.Errorf("%s: %s, want %s", email, gotState[email], wantState[email])
				}
			}
			if len(got) != len(want) {
				t.Errorf("%d members, want %d", len(got), len(want))
			}

			// The same file again changes nothing.
			r, rep = b.importCSV(adminB, file, false)
			if r.status != 200 || rep.Created != 0 || rep.Updated != 0 || rep.Unchanged != 5 || len(rep.Changes) != 0 {
				t.Fatalf("second import: %d %+v", r.status, rep)
			}
		})
	}
}

// TestImportDryRunWritesNothingAndRefusesBadRowsWithTheirReason: every
// refused row is reported with its number and why, a dry run leaves the
// database (and the outbox) as it was, and applying writes exactly the
// rows the dry run listed.
func TestImportDryRunWritesNothingAndRefusesBadRowsWithTheirReason(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		adm := m.user(membersAdminEmail)
		payer := m.user("payer@example.com")
		m.subscribe(payer, "active")
		m.exec(`UPDATE subscriptions SET stripe_subscription_id = 'sub_1', stripe_customer_id = 'cus_Payer1' WHERE user_id = $1`, payer.id)
		file := strings.Join([]string{
			"Name,E-mail,Complimentary until,Stripe customer id",
			"Ada Lovelace,ada@example.com,2099-01-31,",   // 2: new, complimentary
			"Grace Hopper,grace@example.com,,cus_Grace1", // 3: new, linked
			"Nobody,not an address,,",                    // 4: refused
			"Ada Again,ADA@example.com,,",                // 5: refused, duplicate
			"Old Comp,old@example.com,2001-01-01,",       // 6: refused, ended
			"Bad Customer,bad@example.com,,acct_1",       // 7: refused, not a customer id
			"Payer,payer@example.com,2099-01-31,",        // 8: refused, pays through Stripe
			"Thief,thief@example.com,,cus_Payer1",        // 9: refused, another member's customer
			",blank@example.com,,",                       // 10: refused, no name
			"Bad Date,date@example.com,31/01/2099,",      // 11: refused, date format
		}, "\r\n") + "\r\n"
		count := func(q string) int {
			var n int
			if err := db.Read.QueryRow(q).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		users, mails := count(`SELECT COUNT(*) FROM users`), count(`SELECT COUNT(*) FROM mail_outbox`)
		r, dry := m.importCSV(adm, file, true)
		if r.status != 200 || !dry.DryRun || dry.Rows != 10 || dry.Created != 2 || len(dry.Refused) != 8 {
			t.Fatalf("dry run: %d %+v", r.status, dry)
		}
		if count(`SELECT COUNT(*) FROM users`) != users || count(`SELECT COUNT(*) FROM mail_outbox`) != mails ||
			count(`SELECT COUNT(*) FROM billing_customers`) != 0 {
			t.Fatal("a dry run wrote")
		}
		wantRows := []int{4, 5, 6, 7, 8, 9, 10, 11}
		var got []int
		for _, f := range dry.Refused {
			got = append(got, f.Row)
			if f.Reason == "" {
				t.Errorf("row %d refused without a reason", f.Row)
			}
		}
		sort.Ints(got)
		if fmt.Sprint(got) != fmt.Sprint(wantRows) {
			t.Errorf("refused rows %v, want %v (%+v)", got, wantRows, dry.Refused)
		}
		for _, f := range dry.Refused {
			if f.Row == 5 && !strings.Contains(f.Reason, "row 2") || f.Row == 8 && !strings.Contains(f.Reason, "Stripe") {
				t.Errorf("row %d: reason %q", f.Row, f.Reason)
			}
		}

		r, done := m.importCSV(adm, file, false)
		if r.status != 200 || done.DryRun || done.Created != 2 || fmt.Sprint(done.Refused) != fmt.Sprint(dry.Refused) ||
			fmt.Sprint(done.Changes) != fmt.Sprint(dry.Changes) {
			t.Fatalf("apply: %d %+v\ndry: %+v", r.status, done, dry)
		}
		if count(`SELECT COUNT(*) FROM users`) != users+2 || count(`SELECT COUNT(*) FROM billing_customers WHERE stripe_customer_id = 'cus_Grace1'`) != 1 ||
			count(`SELECT COUNT(*) FROM subscriptions WHERE complimentary = TRUE`) != 1 {
			t.Fatal("apply did not write what the dry run listed")
		}
		// Ada became complimentary: the welcome mail an admin's grant sends,
		// and nothing for Grace's new account.
		if n := count(`SELECT COUNT(*) FROM mail_outbox WHERE to_addr = 'grace@example.com'`); n != 0 {
			t.Errorf("%d mails to an imported member without a membership", n)
		}
		if n := count(`SELECT COUNT(*) FROM mail_outbox WHERE to_addr = 'ada@example.com'`); n != 1 {
			t.Errorf("%d mails to the new complimentary member, want the one welcome", n)
		}
		// Imported accounts have no password anyone knows.
		if r := m.call(testUser{}, "POST", "/api/auth/signin", map[string]string{"email": "grace@example.com", "password": ""}); r.status == 200 {
			t.Error("an imported account signed in without a password")
		}
	})
}

// TestImportRowRefusedByTheGrantLeavesNoAccount: a new member whose
// complimentary membership the full tribe refuses is not created at all
// (the row is all or nothing).
func TestImportRowRefusedByTheGrantLeavesNoAccount(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		env := membersEnv()
		env["TRIBE_CAPACITY"] = "1"
		m := newTestSite(t, db, env)
		adm := m.user(membersAdminEmail)
		r, rep := m.importCSV(adm, "full_name,email,complimentary\r\nOne,one@example.com,yes\r\nTwo,two@example.com,yes\r\n", false)
		if r.status != 200 || rep.Created != 1 || len(rep.Refused) != 1 || rep.Refused[0].Row != 3 || !strings.Contains(rep.Refused[0].Reason, "full") {
			t.Fatalf("%d %+v", r.status, rep)
		}
		var n int
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM users WHERE email_normalized = 'two@example.com'`).Scan(&n)
		if n != 0 {
			t.Fatal("the refused row's account was created")
		}
	})
}

// TestImportRefusesWholeFilesThatAreNotAMembersCSV: too large, not UTF-8,
// no email column, no rows, an unknown dry_run: a clear 4xx and nothing read.
func TestImportRefusesWholeFilesThatAreNotAMembersCSV(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		adm := m.user(membersAdminEmail)
		big := "full_name,email\r\n" + strings.Repeat("A Person,someone@example.com\r\n", transfer.MaxImportBytes/28+1)
		for name, c := range map[string]struct {
			file   string
			status int
		}{
			"too large":  {big, 413},
			"not utf-8":  {"full_name,email\r\nZo\xe9,zoe@example.com\r\n", 400},
			"no email":   {"full_name,address\r\nZoe,zoe@example.com\r\n", 400},
			"no rows":    {"full_name,email\r\n", 400},
			"bad quotes": {"full_name,email\r\n\"Zoe,zoe@example.com\r\n", 400},
		} {
			if r, _ := m.importCSV(adm, c.file, false); r.status != c.status || r.json == nil {
				t.Errorf("%s: %d %.200s, want %d", name, r.status, r.body, c.status)
			}
		}
		if r := m.call(adm, "POST", "/api/admin/import/members?dry_run=maybe", upload{body: []byte("full_name,email\r\nZoe,zoe@example.com\r\n"), contentType: "text/csv"}); r.status != 400 {
			t.Errorf("dry_run=maybe: %d", r.status)
		}
		var n int
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM users`).Scan(&n)
		if n != 1 {
			t.Fatalf("%d accounts after refused files", n)
		}
	})
}

// TestExportsAreFormulaSafeCSVWithTheirHeaders: the wait list (which once
// wrote LF), bookings, attendance and ledger exports are RFC 4180 and
// neutralise what people typed.
func TestExportsAreFormulaSafeCSVWithTheirHeaders(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		adm := m.user(membersAdminEmail)
		m.exec(`INSERT INTO waitlist (id, full_name, email, email_normalized) VALUES ('w1', '@SUM(A1)', 'w@example.com', 'w@example.com')`)
		wl := readCSV(t, m.call(adm, "GET", "/api/admin/export/waitlist.csv", nil))
		if strings.Join(wl[0], ",") != "full_name,email,joined_at" || wl[1][0] != "'@SUM(A1)" {
			t.Errorf("wait list %q", wl)
		}
		for file, header := range map[string][]string{"bookings": transfer.BookingsHeader, "ledger": transfer.LedgerHeader} {
			recs := readCSV(t, m.call(adm, "GET", "/api/admin/export/"+file+".csv", nil))
			if strings.Join(recs[0], ",") != strings.Join(header, ",") {
				t.Errorf("%s header %q", file, recs[0])
			}
		}
		att := readCSV(t, m.call(adm, "GET", "/api/admin/export/attendance.csv", nil))
		if att[0][0] != "session_id" || att[0][4] != "full_name" {
			t.Errorf("attendance header %q", att[0])
		}
	})
}

// Money in the CSV exports was written in cents with no unit ("29900" for
// a $299 call): a spreadsheet read it as 29,900 dollars. It is a decimal in
// the currency column's unit.
func TestCSVExportsWriteMoneyAsDecimalsWithTheCurrency(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		adm := m.user(membersAdminEmail)
		if r := m.call(testUser{}, "POST", "/api/bookings", bookBody("session-30", m.freeSlot("session-30", 3, 0), "ada@example.com")); r.status != 201 {
			t.Fatalf("book: %d %s", r.status, r.body)
		}
		recs := readCSV(t, m.call(adm, "GET", "/api/admin/export/bookings.csv", nil))
		col := map[string]int{}
		for i, h := range recs[0] {
			col[h] = i
		}
		if len(recs) != 2 {
			t.Fatalf("%d rows", len(recs))
		}
		row := recs[1]
		if row[col["amount"]] != "299.00" || row[col["currency"]] != "USD" || row[col["refunded"]] != "0.00" {
			t.Fatalf("amount %q currency %q refunded %q, want 299.00 USD 0.00", row[col["amount"]], row[col["currency"]], row[col["refunded"]])
		}
	})
}
