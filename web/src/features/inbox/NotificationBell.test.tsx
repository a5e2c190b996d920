import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { List, Notification } from '@/lib/api-types/inbox';
import { NOTIFICATIONS_QUERY_ROOT } from '@/lib/events';
import { createQueryClient } from '@/lib/query';
import { createMemoryHistory, Router } from '@/lib/router';
import { structuralViolations } from '@/test/axe';
import { json, mockApi, resetAuthState } from '@/test/mock-api';
import { bellLabel, NotificationBell } from './NotificationBell';
import { base64UrlToBytes } from './push-device';

function note(id: string, over: Partial<Notification> = {}): Notification {
  return {
    id,
    kind: 'mention',
    title: `Title ${id}`,
    body: '',
    link: `/members/community/${id}`,
    count: 1,
    created_at: '2026-11-28T10:00:00Z',
    read_at: null,
    ...over,
  };
}

/** A fake notification centre behind the two endpoints. */
function serve(initial: Notification[]) {
  let items = [...initial];
  const list = (): List => ({
    notifications: items,
    unread: items.filter((n) => n.read_at === null).length,
    next_cursor: '',
  });
  const api = mockApi({
    'GET /api/notifications': () => json(200, list()),
    'POST /api/notifications/read': (body) => {
      const b = body as { ids: string[]; all: boolean };
      let marked = 0;
      items = items.map((n) => {
        if (n.read_at === null && (b.all || b.ids.includes(n.id))) {
          marked += 1;
          return { ...n, read_at: '2026-11-28T11:00:00Z' };
        }
        return n;
      });
      return json(200, { marked, unread: list().unread });
    },
  });
  return {
    api,
    add: (n: Notification) => {
      items = [n, ...items];
    },
  };
}

function renderBell() {
  const client = createQueryClient();
  const history = createMemoryHistory(['/members']);
  const result = render(
    <QueryClientProvider client={client}>
      <Router history={history}>
        <NotificationBell />
      </Router>
    </QueryClientProvider>,
  );
  return { client, history, ...result };
}

describe('the notification bell', () => {
  beforeEach(() => resetAuthState());

  it('names its count for screen readers', () => {
    expect(bellLabel(undefined)).toBe('Notifications');
    expect(bellLabel(0)).toBe('Notifications');
    expect(bellLabel(3)).toBe('Notifications 3 unread');
    expect(bellLabel(120)).toBe('Notifications 99+ unread');
  });

  it('shows the unread count, rises when the live update invalidates it, and lists entries as links', async () => {
    const store = serve([note('a'), note('b', { read_at: '2026-11-28T09:00:00Z', kind: 'reply' })]);
    const { client, history } = renderBell();
    const bell = await screen.findByRole('button', { name: 'Notifications 1 unread' });

    store.add(note('c', { kind: 'reaction', title: 'Cy reacted', count: 3 }));
    await client.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_ROOT });
    await screen.findByRole('button', { name: 'Notifications 2 unread' });

    await userEvent.click(bell);
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    const list = within(dialog).getByRole('list', { name: 'Notifications' });
    const links = within(list).getAllByRole('link');
    expect(links.map((l) => l.getAttribute('href'))).toEqual([
      '/members/community/c',
      '/members/community/a',
      '/members/community/b',
    ]);
    expect(links[0]).toHaveTextContent('Unread: Cy reacted (and 2 more)');
    expect(await structuralViolations(dialog)).toEqual([]);

    await userEvent.click(links[1] as HTMLElement);
    await waitFor(() => expect(history.location.pathname).toBe('/members/community/a'));
    expect(store.api.to('POST', '/api/notifications/read')[0]?.body).toEqual({
      ids: ['a'],
      all: false,
    });
    await screen.findByRole('button', { name: 'Notifications 1 unread' });
  });

  it('marks all read', async () => {
    const store = serve([note('a'), note('b')]);
    renderBell();
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications 2 unread' }));
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark all read' }));
    await within(dialog).findByText('All caught up.');
    expect(store.api.to('POST', '/api/notifications/read')[0]?.body).toEqual({
      ids: [],
      all: true,
    });
    await userEvent.keyboard('{Escape}');
    expect(await screen.findByRole('button', { name: 'Notifications' })).toHaveFocus();
  });

  it('says when there is nothing yet', async () => {
    serve([]);
    renderBell();
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText(/Nothing yet/)).toBeInTheDocument();
  });
});

describe('push keys', () => {
  it('reads the base64url VAPID key into bytes', () => {
    const bytes = base64UrlToBytes('BP8A_-8');
    expect(Array.from(bytes)).toEqual([0x04, 0xff, 0x00, 0xff, 0xef]);
  });
});
