package ratelimit

import (
	"sync"
	"testing"
)

func TestSlots(t *testing.T) {
	s := NewSlots(2, 3)
	a1, r := s.Acquire("a")
	a2, _ := s.Acquire("a")
	if a1 == nil || a2 == nil || r != "" {
		t.Fatal("first two slots of a refused")
	}
	if rel, why := s.Acquire("a"); rel != nil || why != SlotsKeyFull {
		t.Fatalf("third slot of a: %q", why)
	}
	b1, _ := s.Acquire("b")
	if rel, why := s.Acquire("c"); rel != nil || why != SlotsTotalFull {
		t.Fatalf("fourth slot in all: %q", why)
	}
	a1()
	a1() // twice is once
	if s.InUse() != 2 {
		t.Fatalf("in use %d after one release", s.InUse())
	}
	c1, why := s.Acquire("c")
	if c1 == nil {
		t.Fatalf("slot after a release refused: %q", why)
	}
	a2()
	b1()
	c1()
	if s.InUse() != 0 || len(s.byKey) != 0 {
		t.Fatalf("after every release: %d in use, %d keys remembered", s.InUse(), len(s.byKey))
	}
}

func TestSlotsConcurrent(t *testing.T) {
	s := NewSlots(5, 100)
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			for range 100 {
				if rel, _ := s.Acquire("k"); rel != nil {
					if s.InUse() > 5 {
						t.Error("more than 5 slots for one key")
					}
					rel()
				}
			}
		})
	}
	wg.Wait()
	if s.InUse() != 0 {
		t.Fatalf("%d slots left", s.InUse())
	}
}
