package mail_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"tribe/internal/clock/clocktest"
	"tribe/internal/mail"
	"tribe/internal/mail/mailtest"
	"tribe/internal/store"
)

// TestKilledSendIsSentAgainWithinALease: after kill -9 during an SMTP send,
// the message waited out a 5-minute lease before it was sent again. A dead
// worker (its database gone: it renews nothing) now loses the message after
// DefaultLease, and another worker sends it.
func TestKilledSendIsSentAgainWithinALease(t *testing.T) {
	twoInstances(t, func(t *testing.T, a, b *store.DB) {
		srv := mailtest.Start(t)
		id := enqueue(t, a, mail.Message{To: "a@example.com", Subject: "interrupted", Text: "t"})
		started, release := make(chan struct{}), make(chan struct{})
		hung := senderFunc(func(context.Context, mail.Outgoing) error {
			close(started)
			<-release
			return nil
		})
		dead := mail.NewWorker(a, hung, quiet(), mail.WorkerOptions{})
		var wg sync.WaitGroup
		wg.Go(func() { _, _ = dead.DeliverOne(context.Background()) })
		defer func() { close(release); wg.Wait() }()
		<-started
		claimedAt := time.Now()
		if err := a.Close(); err != nil { // the process is gone
			t.Fatal(err)
		}

		clk := clocktest.At(claimedAt.Add(mail.DefaultLease - 5*time.Second))
		live := mail.NewWorker(b, smtpSender(t, srv), quiet(), mail.WorkerOptions{Now: clk.Now})
		if n := drain(t, live); n != 0 {
			t.Fatalf("the message was taken %v into its lease", mail.DefaultLease-5*time.Second)
		}
		clk.Advance(10 * time.Second)
		if n := drain(t, live); n != 1 {
			t.Fatalf("%v after the crash, drain attempted %d, want the interrupted message", mail.DefaultLease+5*time.Second, n)
		}
		srv.WaitFor(t, 1, 5*time.Second)
		if r := row(t, b, id); r.Status != "sent" || r.Attempts != 2 {
			t.Fatalf("row = %+v, want sent on the second attempt", r)
		}
	})
}

// TestSendLongerThanItsLeaseIsNotTakenOver: the lease is renewed while the
// send lasts, so a slow send is not taken (and sent twice) by another
// worker, however short the lease.
func TestSendLongerThanItsLeaseIsNotTakenOver(t *testing.T) {
	twoInstances(t, func(t *testing.T, a, b *store.DB) {
		srv := mailtest.Start(t)
		id := enqueue(t, a, mail.Message{To: "a@example.com", Subject: "slow", Text: "t"})
		const lease = time.Second
		inner := smtpSender(t, srv)
		started := make(chan struct{})
		slow := senderFunc(func(ctx context.Context, m mail.Outgoing) error {
			close(started)
			time.Sleep(3 * lease)
			return inner.Send(ctx, m)
		})
		first := mail.NewWorker(a, slow, quiet(), mail.WorkerOptions{Lease: lease})
		var wg sync.WaitGroup
		wg.Go(func() {
			if ok, err := first.DeliverOne(context.Background()); !ok || err != nil {
				t.Errorf("slow delivery: %v %v", ok, err)
			}
		})
		<-started
		other := mail.NewWorker(b, smtpSender(t, srv), quiet(), mail.WorkerOptions{Lease: lease})
		taken := 0
		for deadline := time.Now().Add(3 * lease); time.Now().Before(deadline) && taken == 0; time.Sleep(lease / 10) {
			n, err := other.Drain(context.Background())
			if err != nil {
				t.Error(err)
			}
			taken = n
		}
		wg.Wait()
		if taken != 0 {
			t.Fatalf("another worker took the message during a send that outlived its lease")
		}
		srv.WaitFor(t, 1, 5*time.Second)
		time.Sleep(50 * time.Millisecond)
		if got := len(srv.Messages()); got != 1 {
			t.Fatalf("the server received %d copies", got)
		}
		if r := row(t, b, id); r.Status != "sent" || r.Attempts != 1 {
			t.Fatalf("row = %+v", r)
		}
	})
}
