import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Thread, ThreadDetail, ThreadList } from '@/lib/api-types/forum';
import { createQueryClient } from '@/lib/query';
import { createMemoryHistory, Router } from '@/lib/router';
import { apiError, deferred, json, mockApi, resetAuthState } from '@/test/mock-api';
import { CommunityTab } from './CommunityTab';

const LIST = '/api/community/threads';

function thread(id: string, over: Partial<Thread> = {}): Thread {
  return {
    id,
    category: 'question',
    title: `Thread ${id}`,
    excerpt: `About ${id}`,
    author: { id: 'u1', full_name: 'Ada Lovelace', avatar_url: null, level: 'Explorer' },
    created_at: '2026-11-28T10:00:00Z',
    last_activity_at: '2026-11-28T10:00:00Z',
    reply_count: 2,
    reactions: 3,
    reacted: false,
    pinned: false,
    accepted_reply_id: null,
    hidden: false,
    hidden_reason: null,
    mine: false,
    ...over,
  };
}

function page(threads: Thread[], over: Partial<ThreadList> = {}): ThreadList {
  return { threads, next_cursor: null, can_post: true, can_announce: false, ...over };
}

function detail(id: string, title: string): ThreadDetail {
  return {
    ...thread(id, { title, mine: true }),
    body: 'The body',
    edited_at: null,
    muted: false,
    can_reply: true,
    can_accept: true,
    replies: [],
  };
}

function renderTab(path = '/members') {
  const client = createQueryClient();
  const history = createMemoryHistory([path]);
  const result = render(
    <QueryClientProvider client={client}>
      <Router history={history}>
        <CommunityTab isAdmin={false} subscribe={<button type="button">Subscribe</button>} />
      </Router>
    </QueryClientProvider>,
  );
  return { history, ...result };
}

async function threadList() {
  return screen.findByRole('list', { name: 'Threads' });
}

describe('the Community tab', () => {
  beforeEach(() => resetAuthState());

  it('lists threads with their category, link, replies and a 🔥 named by its visible count', async () => {
    mockApi({
      [`GET ${LIST}`]: () =>
        json(200, page([thread('t1', { pinned: true }), thread('t2', { accepted_reply_id: 'r' })])),
    });
    renderTab();
    const list = await threadList();
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(
      within(items[0] as HTMLElement).getByRole('link', { name: 'Thread t1' }),
    ).toHaveAttribute('href', '/members/community/t1');
    expect(items[0]).toHaveTextContent('Pinned');
    expect(items[1]).toHaveTextContent('Answered');
    expect(items[0]).toHaveTextContent('2 replies');
    expect(items[0]).toHaveTextContent('3 fire reactions');
  });

  it('filters by category, marking the chosen filter pressed', async () => {
    const api = mockApi({
      [`GET ${LIST}`]: () => json(200, page([thread('t1')])),
      [`GET ${LIST}?category=win`]: () => json(200, page([thread('w1', { category: 'win' })])),
    });
    const user = userEvent.setup();
    renderTab();
    await threadList();
    await user.click(screen.getByRole('button', { name: 'Win' }));
    expect(await screen.findByRole('link', { name: 'Thread w1' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Win' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'false');
    expect(api.to('GET', `${LIST}?category=win`)).toHaveLength(1);
  });

  it('shows only unanswered questions when asked', async () => {
    const api = mockApi({
      [`GET ${LIST}`]: () => json(200, page([thread('t1'), thread('t2')])),
      [`GET ${LIST}?unanswered=1`]: () => json(200, page([thread('u1')])),
    });
    const user = userEvent.setup();
    renderTab();
    await threadList();
    await user.click(screen.getByRole('checkbox', { name: 'Unanswered questions' }));
    expect(await screen.findByRole('link', { name: 'Thread u1' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Thread t2' })).not.toBeInTheDocument();
    expect(api.to('GET', `${LIST}?unanswered=1`)).toHaveLength(1);
  });

  it('searches on Enter and goes back to the list when the box is cleared', async () => {
    const api = mockApi({
      [`GET ${LIST}`]: () => json(200, page([thread('t1')])),
      [`GET ${LIST}?q=vector+store`]: () => json(200, page([thread('s1')])),
    });
    const user = userEvent.setup();
    renderTab();
    await threadList();
    const box = screen.getByRole('searchbox', { name: 'Search threads and replies' });
    await user.type(box, 'vector store{Enter}');
    expect(await screen.findByRole('link', { name: 'Thread s1' })).toBeInTheDocument();
    expect(api.to('GET', `${LIST}?q=vector+store`)).toHaveLength(1);
    await user.clear(box);
    expect(await screen.findByRole('link', { name: 'Thread t1' })).toBeInTheDocument();
  });

  it('says when nothing matches a search, and invites the first thread when there is none', async () => {
    mockApi({
      [`GET ${LIST}`]: () => json(200, page([])),
      [`GET ${LIST}?q=nothing`]: () => json(200, page([])),
    });
    const user = userEvent.setup();
    renderTab();
    expect(await screen.findByText('No threads yet.')).toBeInTheDocument();
    expect(screen.getByText('Start the first one!')).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox'), 'nothing{Enter}');
    expect(await screen.findByText('No thread matches.')).toBeInTheDocument();
    expect(screen.getByText('Try other words or another filter.')).toBeInTheDocument();
  });

  it('shows a free member the announcements, the subscribe prompt and no composer', async () => {
    mockApi({ [`GET ${LIST}`]: () => json(200, page([], { can_post: false })) });
    renderTab();
    expect(await screen.findByText('No announcements yet.')).toBeInTheDocument();
    expect(screen.getByText(/Subscribe to read every thread/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Subscribe' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New thread' })).not.toBeInTheDocument();
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
  });

  it('says the list failed with the reason, and loads it again on "Try again"', async () => {
    let fail = true;
    mockApi({
      [`GET ${LIST}`]: () =>
        fail
          ? apiError(503, 'unavailable', 'The database is busy.')
          : json(200, page([thread('t1')])),
    });
    const user = userEvent.setup();
    renderTab();
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent('The threads could not be loaded: The database is busy.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Thread t1' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('names an empty title or body at its field without sending anything', async () => {
    const api = mockApi({ [`GET ${LIST}`]: () => json(200, page([])) });
    const user = userEvent.setup();
    renderTab();
    await user.click(await screen.findByRole('button', { name: 'New thread' }));
    const form = screen.getByRole('form', { name: 'New thread' });
    await user.click(within(form).getByRole('button', { name: 'Post thread' }));
    const title = within(form).getByLabelText('Title');
    expect(title).toHaveAttribute('aria-invalid', 'true');
    expect(title).toHaveAccessibleDescription('Title is required.');
    await user.type(title, 'Memory for agents?');
    await user.click(within(form).getByRole('button', { name: 'Post thread' }));
    expect(within(form).getByLabelText('Body')).toHaveAttribute('aria-invalid', 'true');
    expect(title).not.toHaveAttribute('aria-invalid');
    expect(api.to('POST', LIST)).toHaveLength(0);
  });

  it("shows the server's refusal at the field it names", async () => {
    mockApi({
      [`GET ${LIST}`]: () => json(200, page([])),
      [`POST ${LIST}`]: () =>
        apiError(400, 'invalid', 'Title must be at most 200 characters.', 'title'),
    });
    const user = userEvent.setup();
    renderTab();
    await user.click(await screen.findByRole('button', { name: 'New thread' }));
    const form = screen.getByRole('form', { name: 'New thread' });
    await user.type(within(form).getByLabelText('Title'), 'A title');
    await user.type(within(form).getByLabelText('Body'), 'A body');
    await user.click(within(form).getByRole('button', { name: 'Post thread' }));
    const title = within(form).getByLabelText('Title');
    await waitFor(() => expect(title).toHaveAttribute('aria-invalid', 'true'));
    expect(title).toHaveAccessibleDescription('Title must be at most 200 characters.');
  });

  it('posts once however often it is submitted, then opens the new thread', async () => {
    const answer = deferred<Response>();
    const api = mockApi({
      [`GET ${LIST}`]: () => json(200, page([])),
      [`POST ${LIST}`]: () => answer.promise,
      'GET /api/community/threads/n1': () => json(200, { thread: detail('n1', 'Fresh') }),
    });
    const user = userEvent.setup();
    const { history } = renderTab();
    await user.click(await screen.findByRole('button', { name: 'New thread' }));
    const form = screen.getByRole('form', { name: 'New thread' });
    await user.type(within(form).getByLabelText('Title'), 'Fresh');
    await user.type(within(form).getByLabelText('Body'), 'Hello tribe');
    await user.type(within(form).getByLabelText('Title'), '{Enter}{Enter}');
    await user.click(within(form).getByRole('button', { name: /Post/ }));
    expect(within(form).getByRole('button', { name: 'Posting…' })).toBeDisabled();
    expect(api.to('POST', LIST)).toHaveLength(1);
    expect(api.to('POST', LIST)[0]?.body).toEqual({
      category: 'question',
      title: 'Fresh',
      body: 'Hello tribe',
    });
    answer.resolve(json(201, { thread: detail('n1', 'Fresh') }));
    await waitFor(() => expect(history.location.pathname).toBe('/members/community/n1'));
    expect(await screen.findByRole('heading', { name: 'Fresh' })).toBeInTheDocument();
  });

  it('works from the keyboard: open the composer, pick a filter, load more', async () => {
    const api = mockApi({
      [`GET ${LIST}`]: () => json(200, page([thread('t1')], { next_cursor: 'c2' })),
      [`GET ${LIST}?cursor=c2`]: () => json(200, page([thread('t2')])),
      [`GET ${LIST}?category=resource`]: () => json(200, page([thread('r1')])),
    });
    const user = userEvent.setup();
    renderTab();
    await threadList();
    const more = screen.getByRole('button', { name: 'More threads' });
    more.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('link', { name: 'Thread t2' })).toBeInTheDocument();
    expect(api.to('GET', `${LIST}?cursor=c2`)).toHaveLength(1);

    const resources = screen.getByRole('button', { name: 'Resource' });
    resources.focus();
    await user.keyboard(' ');
    expect(await screen.findByRole('link', { name: 'Thread r1' })).toBeInTheDocument();

    const open = screen.getByRole('button', { name: 'New thread' });
    open.focus();
    await user.keyboard('{Enter}');
    expect(open).toHaveAttribute('aria-expanded', 'true');
    const form = screen.getByRole('form', { name: 'New thread' });
    await user.tab();
    expect(within(form).getByLabelText('Category')).toHaveFocus();
  });

  it('shows loading while the first page is on its way', async () => {
    const answer = deferred<Response>();
    mockApi({ [`GET ${LIST}`]: () => answer.promise });
    renderTab();
    expect(screen.getByRole('status')).toHaveTextContent('Loading threads…');
    answer.resolve(json(200, page([thread('t1')])));
    expect(await screen.findByRole('link', { name: 'Thread t1' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
