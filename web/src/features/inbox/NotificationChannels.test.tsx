import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Preferences } from '@/lib/api-types/inbox';
import { createQueryClient } from '@/lib/query';
import { ToastRegion } from '@/lib/toast';
import { structuralViolations } from '@/test/axe';
import { apiError, json, mockApi, resetAuthState } from '@/test/mock-api';
import { NotificationChannels } from './NotificationChannels';

const prefs: Preferences = {
  session_reminders: true,
  weekly_digest: true,
  cohort_projects: true,
  level_reached: true,
  time_zone: '',
  channels: {
    mention: 'push',
    reply: 'push',
    accepted: 'push',
    reaction: 'app',
    announcement: 'push',
    level: 'app',
    reminder: 'app',
    replay: 'push',
  },
};

function renderChannels() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <NotificationChannels />
      <ToastRegion />
    </QueryClientProvider>,
  );
}

describe('notification channels in Profile', () => {
  beforeEach(() => resetAuthState());

  it('shows each kind, saves a change at once, and offers mail only where it is its own', async () => {
    let current = structuredClone(prefs);
    const api = mockApi({
      'GET /api/members/me/notifications': () => json(200, current),
      'PUT /api/members/me/notifications': (body) => {
        const b = body as { channels: Record<string, string> };
        current = { ...current, channels: { ...current.channels, ...b.channels } };
        return json(200, current);
      },
    });
    const { container } = renderChannels();
    const region = await screen.findByRole('region', { name: 'Notifications in the app' });
    const reactions = await within(region).findByRole('combobox', {
      name: 'Reactions to my posts',
    });
    expect(reactions).toHaveValue('app');
    const level = within(region).getByRole('combobox', { name: 'Level reached' });
    expect(
      within(level)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['In the app only', 'In the app and on my devices']);
    await userEvent.selectOptions(reactions, 'mail');
    await waitFor(() =>
      expect(api.to('PUT', '/api/members/me/notifications')[0]?.body).toEqual({
        channels: { reaction: 'mail' },
      }),
    );
    await waitFor(() => expect(reactions).toHaveValue('mail'));
    // This browser (jsdom) has no push: the member is told, and offered no button.
    expect(within(region).getByText(/cannot show notifications/)).toBeInTheDocument();
    expect(within(region).queryByRole('button', { name: /Turn on/ })).toBeNull();
    expect(await structuralViolations(container)).toEqual([]);
  });

  it('says when the choices cannot be loaded, and tries again', async () => {
    let fail = true;
    mockApi({
      'GET /api/members/me/notifications': () =>
        fail ? apiError(500, 'internal', 'Something went wrong') : json(200, prefs),
    });
    renderChannels();
    const retry = await screen.findByRole('button', { name: 'Try again' }, { timeout: 5000 });
    fail = false;
    await userEvent.click(retry);
    expect(await screen.findByRole('combobox', { name: 'Mentions of me' })).toHaveValue('push');
  });
});
