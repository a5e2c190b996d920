package ratelimit

import (
	"testing"
	"testing/synctest"
	"time"
)

// TestBackoffStartsAfterFreeFailures: "after 5 failures in a row, the next
// attempt must wait 1 s" (docs/api.md), not after 6.
func TestBackoffStartsAfterFreeFailures(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := NewBackoff(5, time.Second, time.Minute)
		for i := range 4 {
			if d := b.Fail("ada"); d != 0 {
				t.Fatalf("failure %d: delay %v, want none yet", i+1, d)
			}
		}
		if d := b.Fail("ada"); d != time.Second {
			t.Fatalf("fifth failure: delay %v, want 1s before the sixth attempt", d)
		}
		if w := b.Wait("ada"); w != time.Second {
			t.Fatalf("sixth attempt waits %v, want 1s", w)
		}
	})
}

// TestSigninBackoffCannotLockOutTheOwner is the targeted lockout: someone
// fails one sign-in for the owner's address each time the back-off
// expires. The owner, from a client that has not failed, is never held back;
// the attacker still is.
func TestSigninBackoffCannotLockOutTheOwner(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := NewSigninBackoff(5, time.Second, time.Minute)
		const addr, attacker, owner = "ada@example.com", "203.0.113.9", "198.51.100.7"
		start := time.Now()
		for i := range 200 { // about three hours of the attack
			if w := b.Wait(addr, attacker); w > 0 {
				time.Sleep(w)
			}
			b.Fail(addr, attacker)
			if w := b.Wait(addr, owner); w != 0 {
				t.Fatalf("after %v of attack the owner must wait %v", time.Since(start), w)
			}
			if w := b.Wait(addr, attacker); i >= 4 && w == 0 {
				t.Fatalf("after %d failures the attacker must be slowed down", i+1)
			}
		}
		if w := b.Wait(addr, attacker); w != time.Minute {
			t.Fatalf("the attacker waits %v, want the 60s cap", w)
		}
		// The owner signs in; the attacker stays where it was.
		b.Succeed(addr, owner)
		if w := b.Wait(addr, attacker); w != time.Minute {
			t.Fatalf("the owner's success freed the attacker: %v", w)
		}
	})
}

// TestSigninBackoffAcrossClients: a client's own failures slow it down as
// before; a client that failed Free times also waits for the address's
// back-off, so many clients guessing one address share one slow pace,
// while a client with fewer failures (an owner's typo) is not held.
func TestSigninBackoffAcrossClients(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := NewSigninBackoff(5, time.Second, time.Minute)
		const addr = "ada@example.com"
		for i := range 4 {
			b.Fail(addr, "a")
			if w := b.Wait(addr, "a"); w != 0 {
				t.Fatalf("failure %d of one client: wait %v", i+1, w)
			}
		}
		b.Fail(addr, "a")
		if w := b.Wait(addr, "a"); w != time.Second {
			t.Fatalf("after five failures: wait %v, want 1s", w)
		}
		// Twenty more clients, five failures each, as fast as they may.
		for i := range 20 {
			client := string(rune('b' + i))
			for range 5 {
				time.Sleep(b.Wait(addr, client))
				b.Fail(addr, client)
			}
		}
		if w := b.Wait(addr, "u"); w < 30*time.Second {
			t.Fatalf("a client with five failures waits only %v while the address is under attack", w)
		}
		b.Fail(addr, "owner") // one typo
		if w := b.Wait(addr, "owner"); w != 0 {
			t.Fatalf("one typo from the owner's client: wait %v", w)
		}
		if w := b.Wait(addr, "fresh"); w != 0 {
			t.Fatalf("a client that has not failed waits %v", w)
		}
		if w := b.Wait("grace@example.com", "a"); w != 0 {
			t.Fatalf("another address waits %v", w)
		}
		// A password reset clears the address for every client.
		b.Reset(addr)
		for _, client := range []string{"a", "b", "u", "owner"} {
			if w := b.Wait(addr, client); w != 0 {
				t.Fatalf("after Reset %s waits %v", client, w)
			}
		}
		// An address that is a prefix of another is not cleared with it.
		b.Fail("a@b.co", "x")
		for range 5 {
			b.Fail("a@b.com", "x")
		}
		b.Reset("a@b.co")
		if w := b.Wait("a@b.com", "x"); w == 0 {
			t.Fatal("Reset of a@b.co cleared a@b.com")
		}
		// Failures are forgotten 15 minutes after the last one.
		time.Sleep(15 * time.Minute)
		if w := b.Wait("a@b.com", "x"); w != 0 {
			t.Fatalf("forgotten failures still wait %v", w)
		}
	})
}
