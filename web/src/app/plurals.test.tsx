/**
 * Every count the site shows reads correctly for 0, 1 and many. A tribe capped at one member
 * (TRIBE_CAPACITY=1, which the server writes into the content it injects) once read "limited to
 * 1 members" on /booking and "All 1 places are taken" on /tribe.
 */
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bundledContent } from '@/content/site';
import { spotsText } from '@/features/members/logic';
import { allTakenText } from '@/features/tribe/TribePage';
import type { TribeStatus } from '@/lib/api-types/billing';
import { mockApi, resetAuthState } from '@/test/mock-api';
import { renderRoute } from '@/test/render';

function injectCapacity(capacity: number) {
  const content = structuredClone(bundledContent);
  content.services.tribe.capacity = capacity;
  const element = document.createElement('script');
  element.id = 'tribe-content';
  element.type = 'application/json';
  element.textContent = JSON.stringify(content);
  document.body.append(element);
}

function tribeStatus(capacity: number, active: number): TribeStatus {
  return {
    capacity,
    active_members: active,
    held: 0,
    spots_left: Math.max(0, capacity - active),
    at_capacity: active >= capacity,
    payments_enabled: true,
    plans: [],
  };
}

afterEach(() => {
  document.getElementById('tribe-content')?.remove();
  resetAuthState();
  vi.unstubAllGlobals();
});

describe('counts on the public pages', { timeout: 20_000 }, () => {
  it('/booking says "limited to 1 member" for a cap of one', async () => {
    injectCapacity(1);
    renderRoute('/booking');
    expect(await screen.findByText('limited to 1 member')).toBeInTheDocument();
    expect(screen.queryByText(/1 members/)).not.toBeInTheDocument();
  });

  it('/booking keeps "limited to 50 members" for many', async () => {
    renderRoute('/booking');
    expect(await screen.findByText('limited to 50 members')).toBeInTheDocument();
  });

  it('Home says "Limited to 1 member" for a cap of one', async () => {
    injectCapacity(1);
    renderRoute('/');
    expect(await screen.findByText('Limited to 1 member')).toBeInTheDocument();
  });

  it('/tribe says "The 1 place is taken." when the one place is', async () => {
    injectCapacity(1);
    mockApi({ 'GET /api/tribe/status': () => Response.json(tribeStatus(1, 1)) });
    renderRoute('/tribe');
    const notices = await screen.findAllByText(/The 1 place is taken\./);
    expect(notices).toHaveLength(2);
    expect(document.body).not.toHaveTextContent(/1 places|1 members/);
    expect(screen.getByText('Limited to 1 member')).toBeInTheDocument();
  });

  it('/tribe counts one spot left in the singular, and none in the plural', async () => {
    mockApi({ 'GET /api/tribe/status': () => Response.json(tribeStatus(50, 49)) });
    renderRoute('/tribe');
    expect(await screen.findAllByText('1 spot left of 50')).toHaveLength(2);
  });
});

describe('count texts', () => {
  it('say "All n places are taken." for many and "The 1 place is taken." for one', () => {
    expect(allTakenText(1)).toBe('The 1 place is taken.');
    expect(allTakenText(2)).toBe('All 2 places are taken.');
    expect(allTakenText(50)).toBe('All 50 places are taken.');
    // Seats held by checkouts in progress are counted too.
    expect(allTakenText(1, 1)).toBe(
      'The 1 place is taken by a checkout in progress that frees up if not paid within half an hour.',
    );
    expect(allTakenText(50, 1)).toBe(
      'All 50 places are taken, 1 of them by a checkout in progress that frees up if not paid within half an hour.',
    );
    expect(allTakenText(50, 3)).toBe(
      'All 50 places are taken, 3 of them by checkouts in progress that free up if not paid within half an hour.',
    );
  });

  it('count the spots left on the members card for 0, 1 and many', () => {
    const card = (active_members: number, spots_left: number) =>
      spotsText({ active_members, held: 0, spots_left, at_capacity: spots_left === 0 });
    expect(card(50, 0)).toBe('0 spots left');
    expect(card(49, 1)).toBe('1 spot left');
    expect(card(30, 20)).toBe('20 spots left');
  });
});
