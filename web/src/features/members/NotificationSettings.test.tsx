import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AtRiskList, AtRiskMember, Settings } from '@/lib/api-types/notify';
import { createQueryClient } from '@/lib/query';
import { detectTimeZone } from '@/lib/time-zone';
import { ToastRegion } from '@/lib/toast';
import { apiError, json, mockApi, resetAuthState } from '@/test/mock-api';
import { AdminAtRisk } from './AdminAtRisk';
import { writeToThem } from './at-risk';
import { NotificationSettings } from './NotificationSettings';
import { useAdoptTimeZone } from './use-adopt-time-zone';

/** The members area's shell, as far as the time zone goes. */
function AreaShell() {
  useAdoptTimeZone(true);
  return null;
}

const defaults: Settings = {
  session_reminders: true,
  weekly_digest: true,
  cohort_projects: true,
  level_reached: true,
  time_zone: '',
};

/** A fake settings store behind the two endpoints. */
function serveSettings(initial: Settings) {
  let st = { ...initial };
  const api = mockApi({
    'GET /api/members/me/notifications': () => json(200, st),
    'PUT /api/members/me/notifications': (body) => {
      const b = body as Partial<Settings>;
      if (b.time_zone === 'Mars/Olympus') {
        return apiError(
          400,
          'invalid',
          'Choose a time zone from the list (for example Europe/Paris).',
        );
      }
      st = { ...st, ...b };
      return json(200, st);
    },
  });
  return { api, get: () => st };
}

function renderWith(node: React.ReactNode) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      {node}
      <ToastRegion />
    </QueryClientProvider>,
  );
}

describe('notification settings in Profile', () => {
  beforeEach(() => resetAuthState());
  afterEach(() => resetAuthState());

  it("saves the browser's zone once when none is set, and each choice at once", async () => {
    const store = serveSettings(defaults);
    renderWith(
      <>
        <AreaShell />
        <NotificationSettings />
      </>,
    );
    const digest = await screen.findByRole('checkbox', { name: 'Weekly digest' });
    expect(digest).toBeChecked();
    await waitFor(() => expect(store.get().time_zone).toBe(detectTimeZone()));
    expect(store.api.to('PUT', '/api/members/me/notifications')).toHaveLength(1);

    await userEvent.click(digest);
    await waitFor(() => expect(store.get().weekly_digest).toBe(false));
    expect(await screen.findByText('Weekly digest off')).toBeVisible();
    expect(screen.getByRole('checkbox', { name: 'Weekly digest' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Session reminders' })).toHaveAccessibleDescription(
      /24 hours and 1 hour before/,
    );
  });

  it('member who never opened Profile gets the browser zone on the first visit', async () => {
    const store = serveSettings(defaults);
    renderWith(<AreaShell />);
    await waitFor(() => expect(store.get().time_zone).toBe(detectTimeZone()));
    expect(store.api.to('PUT', '/api/members/me/notifications')).toHaveLength(1);
  });

  it('a zone already chosen is never replaced by the browser zone', async () => {
    const store = serveSettings({ ...defaults, time_zone: 'Asia/Tokyo' });
    renderWith(<AreaShell />);
    await waitFor(() =>
      expect(store.api.to('GET', '/api/members/me/notifications')).toHaveLength(1),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.api.to('PUT', '/api/members/me/notifications')).toHaveLength(0);
    expect(store.get().time_zone).toBe('Asia/Tokyo');
  });

  it('keeps a chosen zone and changes it from the list', async () => {
    const store = serveSettings({ ...defaults, time_zone: 'Asia/Tokyo' });
    renderWith(<NotificationSettings />);
    const zone = await screen.findByRole('combobox', { name: 'Time zone for times in mail' });
    expect(zone).toHaveValue('Asia/Tokyo');
    await userEvent.selectOptions(zone, 'Europe/Paris');
    await waitFor(() => expect(store.get().time_zone).toBe('Europe/Paris'));
    expect(store.api.to('PUT', '/api/members/me/notifications')).toHaveLength(1);
  });

  it('says so when the settings cannot be loaded, and retries', async () => {
    let fail = true;
    mockApi({
      'GET /api/members/me/notifications': () =>
        fail ? apiError(500, 'internal', 'Something went wrong') : json(200, defaults),
      'PUT /api/members/me/notifications': () => json(200, defaults),
    });
    renderWith(<NotificationSettings />);
    expect(
      await screen.findByText('Your notification settings could not be loaded.'),
    ).toBeVisible();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: /try again|retry/i }));
    expect(await screen.findByRole('checkbox', { name: 'Level reached' })).toBeChecked();
  });
});

const atRisk = (extra: Partial<AtRiskMember>): AtRiskMember => ({
  user_id: 'u1',
  full_name: 'Ada Lovelace',
  email: 'ada+tribe@example.com',
  reasons: ['missed_sessions'],
  last_seen_at: '2026-11-01T10:00:00.000Z',
  last_activity_at: '2026-11-01T10:00:00.000Z',
  level: 'Contributor',
  cohort: 'Night owls',
  subscription_status: 'active',
  ...extra,
});

describe('at-risk list in the Admin tab', () => {
  beforeEach(() => resetAuthState());
  afterEach(() => resetAuthState());

  it('lists each member with reasons, last activity, level and cohort, and a prepared mail', async () => {
    const list: AtRiskList = {
      members: [
        atRisk({}),
        atRisk({
          user_id: 'u2',
          full_name: 'Bob',
          email: 'bob@example.com',
          reasons: ['payment_failed', 'not_seen'],
          cohort: null,
          last_activity_at: null,
          subscription_status: 'past_due',
        }),
      ],
      not_seen_days: 14,
      missed_sessions: 2,
    };
    mockApi({ 'GET /api/admin/at-risk': () => json(200, list) });
    renderWith(<AdminAtRisk />);
    expect(await screen.findByText('2 members at risk')).toBeVisible();
    expect(screen.getByText('Missed the last 2 sessions')).toBeVisible();
    expect(screen.getByText('Payment failed')).toBeVisible();
    expect(screen.getByText('Not seen for 14+ days')).toBeVisible();
    expect(screen.getByText('None recorded')).toBeVisible();
    expect(screen.getByText('Night owls')).toBeVisible();
    const write = screen.getByRole('link', { name: 'Write to them: Ada Lovelace' });
    const href = write.getAttribute('href') ?? '';
    expect(href.startsWith('mailto:ada%2Btribe%40example.com?subject=')).toBe(true);
    const params = new URLSearchParams(href.slice(href.indexOf('?') + 1));
    expect(params.get('subject')).toBe('We missed you in the tribe');
    expect(params.get('body')).toContain('Hi Ada,');
  });

  it('says nobody is at risk when the list is empty', async () => {
    mockApi({
      'GET /api/admin/at-risk': () =>
        json(200, { members: [], not_seen_days: 14, missed_sessions: 2 } satisfies AtRiskList),
    });
    renderWith(<AdminAtRisk />);
    expect(await screen.findByText('Nobody at risk')).toBeVisible();
  });

  it('writes about the payment first when it failed', () => {
    const href = writeToThem(atRisk({ reasons: ['payment_failed'], full_name: '' }));
    const params = new URLSearchParams(href.slice(href.indexOf('?') + 1));
    expect(params.get('subject')).toBe('Your tribe membership');
    expect(params.get('body')?.startsWith('Hi,\n\nIt looks like the last payment')).toBe(true);
  });
});
