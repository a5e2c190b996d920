import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '@/lib/query';
import { createMemoryHistory, Router } from '@/lib/router';
import { structuralViolations } from '@/test/axe';
import { apiError, json, mockApi, resetAuthState } from '@/test/mock-api';
import { LibraryTab } from './LibraryTab';
import { libraryDetail, libraryItem } from './test-fixtures';

const LIST = '/api/library';

function renderTab(path = '/members/library', isAdmin = false) {
  const levels = <button type="button">See the levels</button>;
  const client = createQueryClient();
  const history = createMemoryHistory([path]);
  const result = render(
    <QueryClientProvider client={client}>
      <Router history={history}>
        <LibraryTab
          isAdmin={isAdmin}
          subscribe={<button type="button">Subscribe</button>}
          levels={levels}
        />
      </Router>
    </QueryClientProvider>,
  );
  return { history, ...result };
}

const itemList = () => screen.findByRole('list', { name: 'Library items' });

describe('the Library tab', () => {
  beforeEach(() => resetAuthState());

  it('lists items with their kind, link, duration, progress and completion', async () => {
    mockApi({
      [`GET ${LIST}`]: () =>
        json(200, {
          items: [
            libraryItem('a', { progress: { position_s: 900, completed: false } }),
            libraryItem('b', { kind: 'material', progress: { position_s: 0, completed: true } }),
          ],
        }),
    });
    renderTab();
    const list = await itemList();
    const [first, second] = within(list).getAllByRole('listitem') as HTMLElement[];
    expect(within(first as HTMLElement).getByRole('link', { name: 'Item a' })).toHaveAttribute(
      'href',
      '/members/library/a',
    );
    expect(first).toHaveTextContent('Recording');
    expect(first).toHaveTextContent('1 h');
    expect(within(first as HTMLElement).getByRole('progressbar')).toHaveAttribute(
      'aria-valuenow',
      '25',
    );
    expect(second).toHaveTextContent('Material');
    expect(second).toHaveTextContent('Completed');
    expect(await structuralViolations(document.body)).toEqual([]);
  });

  it('filters by kind and tag and searches, each a request with its parameter', async () => {
    const api = mockApi({
      [`GET ${LIST}`]: () =>
        json(200, { items: [libraryItem('a'), libraryItem('b', { tags: ['rag'] })] }),
      [`GET ${LIST}?kind=lesson`]: () =>
        json(200, { items: [libraryItem('l', { kind: 'lesson' })] }),
      [`GET ${LIST}?kind=lesson&tag=rag`]: () =>
        json(200, { items: [libraryItem('lr', { kind: 'lesson', tags: ['rag'] })] }),
      [`GET ${LIST}?kind=lesson&tag=rag&q=vector+store`]: () => json(200, { items: [] }),
    });
    const user = userEvent.setup();
    renderTab();
    await itemList();
    await user.click(screen.getByRole('button', { name: 'Lessons' }));
    expect(await screen.findByRole('link', { name: 'Item l' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Lessons' })).toHaveAttribute('aria-pressed', 'true');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Tag' }), 'rag');
    expect(await screen.findByRole('link', { name: 'Item lr' })).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Search the library' }), 'vector store');
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Nothing matches.')).toBeInTheDocument();
    expect(api.to('GET', `${LIST}?kind=lesson&tag=rag&q=vector+store`)).toHaveLength(1);
  });

  it('filters by session, offering the sessions items belong to, and keeps it in the address', async () => {
    const sessionOf = (id: string, title: string, date: string) => ({
      id,
      title,
      session_date: date,
      starts_at: `${date}T17:00:00Z`,
    });
    const api = mockApi({
      [`GET ${LIST}`]: () =>
        json(200, {
          items: [
            libraryItem('a', { session_id: 's1' }),
            libraryItem('b', { session_id: 's2' }),
            libraryItem('c'),
          ],
        }),
      [`GET ${LIST}?session_id=s2`]: () =>
        json(200, { items: [libraryItem('b', { session_id: 's2' })] }),
      'GET /api/sessions': () =>
        json(200, {
          sessions: [
            sessionOf('s1', 'Agent memory', '2026-11-05'),
            sessionOf('s2', 'Evals', '2026-11-19'),
            sessionOf('s3', 'No items', '2026-11-26'),
          ],
          can_join: true,
        }),
    });
    const user = userEvent.setup();
    const { history } = renderTab();
    await itemList();
    const select = await screen.findByRole('combobox', { name: 'Session' });
    // Newest first, and only the sessions with items.
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All sessions', '2026-11-19 · Evals', '2026-11-05 · Agent memory']);
    await user.selectOptions(select, 's2');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Item a' })).toBeNull());
    expect(screen.getByRole('link', { name: 'Item b' })).toBeInTheDocument();
    expect(api.to('GET', `${LIST}?session_id=s2`)).toHaveLength(1);
    expect(history.location.search).toBe('?session=s2');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Session' }), '');
    expect(await screen.findByRole('link', { name: 'Item a' })).toBeInTheDocument();
    expect(history.location.search).toBe('');
  });

  it('opens filtered by the session the address names', async () => {
    const api = mockApi({
      [`GET ${LIST}?session_id=s2`]: () =>
        json(200, { items: [libraryItem('b', { session_id: 's2' })] }),
      'GET /api/sessions': () => json(200, { sessions: [], can_join: true }),
    });
    renderTab('/members/library?session=s2');
    expect(await screen.findByRole('link', { name: 'Item b' })).toBeInTheDocument();
    expect(api.to('GET', LIST)).toHaveLength(0);
  });

  it('shows a level lock with its requirement, and a subscribe prompt to free members', async () => {
    mockApi({
      [`GET ${LIST}`]: () =>
        json(200, {
          items: [
            libraryItem('lv', {
              locked: true,
              lock_reason: 'level',
              min_level: 3,
              required_level: 'Builder',
            }),
            libraryItem('m', { locked: true, lock_reason: 'membership' }),
          ],
        }),
    });
    renderTab();
    const list = await itemList();
    const [level, member] = within(list).getAllByRole('listitem') as HTMLElement[];
    expect(level).toHaveTextContent('Reach level 3 (Builder) to open');
    expect(member).toHaveTextContent('Subscribe to open');
    expect(screen.getByRole('button', { name: 'Subscribe' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'See the levels' })).toBeInTheDocument();
  });

  it('says when the library is empty, and when it could not be loaded', async () => {
    mockApi({ [`GET ${LIST}`]: () => json(200, { items: [] }) });
    const { unmount } = renderTab();
    expect(await screen.findByText('No replays yet')).toBeInTheDocument();
    unmount();
    mockApi({ [`GET ${LIST}`]: () => apiError(500, 'server_error', 'Boom') });
    renderTab();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The library could not be loaded: Boom',
    );
  });

  it('gives admins a form for a new item, and opens the item once created', async () => {
    const api = mockApi({
      [`GET ${LIST}`]: () => json(200, { items: [] }),
      'POST /api/admin/library': () =>
        json(201, {
          item: libraryDetail('new', { title: 'Call 12' }),
        }),
      'GET /api/sessions': () =>
        json(200, {
          sessions: [
            {
              id: 's1',
              title: 'Kickoff',
              session_date: '2026-11-05',
              starts_at: '2026-11-05T17:00:00Z',
            },
            {
              id: 's2',
              title: 'Call 12',
              session_date: '2026-11-19',
              starts_at: '2026-11-19T17:00:00Z',
            },
          ],
          can_join: true,
        }),
    });
    const user = userEvent.setup();
    const { history } = renderTab('/members/library', true);
    await screen.findByText('No replays yet');
    await user.click(screen.getByRole('button', { name: 'New item' }));
    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'Call 12');
    await user.type(screen.getByRole('textbox', { name: /^Tags/ }), 'agents, rag');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Tribe Level needed' }), '2');
    // The session is picked by its date and title, newest first.
    const session = screen.getByRole('combobox', { name: 'Session' });
    await waitFor(() =>
      expect(
        within(session)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['None', '2026-11-19 · Call 12', '2026-11-05 · Kickoff']),
    );
    await user.selectOptions(session, '2026-11-19 · Call 12');
    await user.click(screen.getByRole('button', { name: 'Create item' }));
    await waitFor(() => expect(history.location.pathname).toBe('/members/library/new'));
    const sent = api.to('POST', '/api/admin/library')[0]?.body as Record<string, unknown>;
    expect(sent).toMatchObject({ kind: 'recording', title: 'Call 12', tags: ['agents', 'rag'] });
    expect(sent.min_level).toBe(2);
    expect(sent.session_id).toBe('s2');
    expect(typeof sent.published_at).toBe('string');
  });
});
