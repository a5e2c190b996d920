import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Comment, DirectoryEntry, Project } from '@/lib/api-types/community';
import { createQueryClient } from '@/lib/query';
import { ToastRegion } from '@/lib/toast';
import { structuralViolations } from '@/test/axe';
import { ada, apiError, json, mockApi, resetAuthState } from '@/test/mock-api';
import { DirectoryTab } from './DirectoryTab';
import { ProjectsTab } from './ProjectsTab';
import { reactionLabel, validateProject } from './projects-logic';

function project(id: string, extra: Partial<Project> = {}): Project {
  return {
    id,
    author_id: 'u2',
    author_name: 'Grace Hopper',
    author_avatar_url: null,
    title: `Project ${id}`,
    link: 'https://example.com/p',
    description: 'A compiler for agents.',
    repo_url: 'https://github.com/grace/p',
    tags: ['agents', 'go'],
    reactions: 2,
    reacted: false,
    comments: 0,
    mine: false,
    hidden: false,
    hidden_reason: null,
    created_at: '2026-11-23T10:00:00.000Z',
    updated_at: '2026-11-23T10:00:00.000Z',
    ...extra,
  };
}

function renderWith(node: React.ReactNode) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      {node}
      <ToastRegion />
    </QueryClientProvider>,
  );
}

describe('projects form rules', () => {
  it('needs a title, an http(s) link and a description, and at most five tags', () => {
    expect(
      validateProject({
        title: ' ',
        link: 'javascript:alert(1)',
        description: '',
        repo_url: 'ftp://x',
        tags: 'a,b,c,d,e,f',
      }),
    ).toEqual({
      title: 'Title is required.',
      link: 'Link must be an http:// or https:// address.',
      description: 'Description is required.',
      repo_url: 'Repository link must be an http:// or https:// address.',
      tags: 'A project has at most 5 tags.',
    });
    expect(
      validateProject({
        title: 'Kit',
        link: 'https://x.dev',
        description: 'd',
        repo_url: '',
        tags: 'Go, go',
      }),
    ).toEqual({});
  });

  it('names the state of the reaction for screen readers', () => {
    expect(reactionLabel({ title: 'Kit', reactions: 1, reacted: true })).toBe(
      '1 fire reaction: take back your fire reaction to Kit',
    );
    expect(reactionLabel({ title: 'Kit', reactions: 0, reacted: false })).toBe(
      '0 fire reactions: react with fire to Kit',
    );
  });
});

describe('Projects tab', { timeout: 20_000 }, () => {
  beforeEach(() => resetAuthState());
  afterEach(() => resetAuthState());

  it('shares a project, refusing a bad link in the browser first and showing a server refusal on its field', async () => {
    let list: Project[] = [];
    let posts = 0;
    const api = mockApi({
      'GET /api/projects': () => json(200, { projects: list, can_post: true }),
      'POST /api/projects': (body) => {
        posts += 1;
        const b = body as { title: string };
        if (posts === 1) return apiError(400, 'invalid', 'Title is already too clever.', 'title');
        const created = project('new', { title: b.title, mine: true, author_name: 'Ada' });
        list = [created];
        return json(201, { project: created });
      },
    });
    const user = userEvent.setup();
    renderWith(<ProjectsTab isAdmin={false} />);
    expect(await screen.findByText('No projects yet')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Share a project' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share a project' });
    await user.type(within(dialog).getByLabelText('Title'), 'Agent memory kit');
    await user.type(within(dialog).getByLabelText('Link'), 'javascript:alert(1)');
    await user.type(within(dialog).getByLabelText('Short description'), 'Memory for agents.');
    await user.click(within(dialog).getByRole('button', { name: 'Share project' }));
    expect(within(dialog).getByLabelText('Link')).toHaveAccessibleDescription(
      /Link must be an http:\/\/ or https:\/\/ address\./,
    );
    expect(api.to('POST', '/api/projects')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('Link'));
    await user.type(within(dialog).getByLabelText('Link'), 'https://example.com/kit');
    await user.click(within(dialog).getByRole('button', { name: 'Share project' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Title')).toHaveAccessibleDescription(
        'Title is already too clever.',
      ),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Share project' }));
    expect(await screen.findByRole('article', { name: 'Agent memory kit' })).toBeVisible();
    expect(api.to('POST', '/api/projects')[1]?.body).toEqual({
      title: 'Agent memory kit',
      link: 'https://example.com/kit',
      description: 'Memory for agents.',
      repo_url: '',
      tags: [],
    });
    // One's own project: no fire button, but Edit and Delete.
    const card = screen.getByRole('article', { name: 'Agent memory kit' });
    expect(within(card).queryByRole('button', { name: /react with fire/ })).toBeNull();
    expect(within(card).getByRole('button', { name: 'Edit Agent memory kit' })).toBeVisible();
  });

  it('reacts with one 🔥 that announces its state, and comments', async () => {
    let p = project('p1');
    let comments: Comment[] = [];
    const api = mockApi({
      'GET /api/projects': () => json(200, { projects: [p], can_post: true }),
      'PUT /api/projects/p1/reaction': () => {
        p = { ...p, reacted: true, reactions: 3 };
        return json(200, { project: p });
      },
      'GET /api/projects/p1/comments': () => json(200, { comments }),
      'POST /api/projects/p1/comments': (body) => {
        const c: Comment = {
          id: 'c1',
          project_id: 'p1',
          author_id: 'u1',
          author_name: 'Ada',
          author_avatar_url: null,
          body: (body as { body: string }).body,
          created_at: '2026-11-24T10:00:00.000Z',
        };
        comments = [c];
        p = { ...p, comments: 1 };
        return json(201, { comment: c });
      },
    });
    const user = userEvent.setup();
    renderWith(<ProjectsTab isAdmin={false} />);
    const card = await screen.findByRole('article', { name: 'Project p1' });
    const fire = within(card).getByRole('button', {
      name: '2 fire reactions: react with fire to Project p1',
    });
    expect(fire).toHaveAttribute('aria-pressed', 'false');
    // The visible count starts the button's name (axe label-content-name-mismatch).
    expect(await structuralViolations(fire)).toEqual([]);
    await user.click(fire);
    await waitFor(() =>
      expect(
        within(card).getByRole('button', {
          name: /^3 fire reactions: take back your fire reaction to Project p1/,
        }),
      ).toHaveAttribute('aria-pressed', 'true'),
    );
    expect(api.to('PUT', '/api/projects/p1/reaction')).toHaveLength(1);

    await user.click(within(card).getByRole('button', { name: '0 comments' }));
    expect(await within(card).findByText('No comments yet.')).toBeVisible();
    await user.click(within(card).getByRole('button', { name: 'Comment' }));
    expect(within(card).getByLabelText('Add a comment')).toHaveAccessibleDescription(
      'Comment is required.',
    );
    await user.type(within(card).getByLabelText('Add a comment'), '<b>Lovely</b> work');
    await user.click(within(card).getByRole('button', { name: 'Comment' }));
    // Plain text: the markup shows as typed.
    expect(await within(card).findByText('<b>Lovely</b> work')).toBeVisible();
  });

  it('lets a comment be deleted by its author or an admin only, after a confirmation', async () => {
    const comment = (id: string, authorId: string, author: string, body: string): Comment => ({
      id,
      project_id: 'p1',
      author_id: authorId,
      author_name: author,
      author_avatar_url: null,
      body,
      created_at: '2026-11-24T10:00:00.000Z',
    });
    let comments = [
      comment('c1', ada.id, 'Ada Lovelace', 'Nice work'),
      comment('c2', 'u3', 'Spammer', 'Buy followers'),
    ];
    const api = mockApi({
      'GET /api/auth/session': () => json(200, { user: ada }),
      'GET /api/projects': () =>
        json(200, { projects: [project('p1', { comments: comments.length })], can_post: true }),
      'GET /api/projects/p1/comments': () => json(200, { comments }),
      'DELETE /api/projects/p1/comments/c1': () => {
        comments = comments.filter((c) => c.id !== 'c1');
        return new Response(null, { status: 204 });
      },
    });
    const user = userEvent.setup();
    const { unmount } = renderWith(<ProjectsTab isAdmin={false} />);
    const card = await screen.findByRole('article', { name: 'Project p1' });
    await user.click(within(card).getByRole('button', { name: '2 comments' }));
    expect(await within(card).findByText('Buy followers')).toBeVisible();
    // A member deletes their own comment, not another's.
    expect(
      within(card).queryByRole('button', { name: /^Delete the comment of Spammer/ }),
    ).toBeNull();
    await user.click(
      await within(card).findByRole('button', { name: /^Delete the comment of Ada Lovelace/ }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this comment?' });
    expect(dialog).toHaveTextContent('Your comment is removed for everyone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete comment' }));
    await waitFor(() => expect(within(card).queryByText('Nice work')).toBeNull());
    expect(api.to('DELETE', '/api/projects/p1/comments/c1')).toHaveLength(1);
    expect(within(card).getByText('Buy followers')).toBeVisible();
    unmount();

    // An admin may delete anyone's.
    renderWith(<ProjectsTab isAdmin />);
    const again = await screen.findByRole('article', { name: 'Project p1' });
    await user.click(within(again).getByRole('button', { name: '1 comment' }));
    expect(
      await within(again).findByRole('button', { name: /^Delete the comment of Spammer/ }),
    ).toBeVisible();
  });

  it('shows a free member the board read-only with a prompt to subscribe', async () => {
    mockApi({
      'GET /api/projects': () => json(200, { projects: [project('p1')], can_post: false }),
      'GET /api/members/overview': () => json(200, {}),
    });
    renderWith(<ProjectsTab isAdmin={false} />);
    const card = await screen.findByRole('article', { name: 'Project p1' });
    expect(screen.queryByRole('button', { name: 'Share a project' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Subscribe to Share' })).toBeVisible();
    expect(within(card).queryByRole('button', { name: /react with fire/ })).toBeNull();
    expect(within(card).getByText('2 fire reactions')).toBeInTheDocument();
  });

  it('lets an admin hide a project with a reason, and shows the author the reason', async () => {
    let p = project('p1');
    const api = mockApi({
      'GET /api/projects': () => json(200, { projects: [p], can_post: true }),
      'PATCH /api/projects/p1': (body) => {
        const b = body as { hidden_reason: string };
        p = { ...p, hidden: true, hidden_reason: b.hidden_reason };
        return json(200, { project: p });
      },
    });
    const user = userEvent.setup();
    renderWith(<ProjectsTab isAdmin />);
    const card = await screen.findByRole('article', { name: 'Project p1' });
    await user.click(within(card).getByRole('button', { name: 'Hide Project p1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Hide Project p1?' });
    await user.click(within(dialog).getByRole('button', { name: 'Hide project' }));
    expect(within(dialog).getByLabelText('Reason')).toHaveAccessibleDescription(
      'Reason is required.',
    );
    await user.type(within(dialog).getByLabelText('Reason'), 'Broken link');
    await user.click(within(dialog).getByRole('button', { name: 'Hide project' }));
    expect(await within(card).findByText(/Hidden by an admin: Broken link/)).toBeVisible();
    expect(api.to('PATCH', '/api/projects/p1')[0]?.body).toEqual({
      hidden: true,
      hidden_reason: 'Broken link',
    });
  });
});

describe('Directory tab', { timeout: 20_000 }, () => {
  beforeEach(() => resetAuthState());
  afterEach(() => resetAuthState());

  const grace: DirectoryEntry = {
    id: 'u2',
    full_name: 'Grace Hopper',
    avatar_url: null,
    job_title: 'Agent engineer',
    company: 'Navy Labs',
    location: 'Arlington',
    bio: 'Compilers.',
    level: 'Builder',
    cohort: 'Night owls',
    projects: [{ id: 'p1', title: 'Agent compiler', link: 'https://example.com/c' }],
  };

  it('lists the members and searches them', async () => {
    const api = mockApi({
      'GET /api/members/directory': () => json(200, { members: [grace] }),
      'GET /api/members/directory?q=paris': () => json(200, { members: [] }),
    });
    const user = userEvent.setup();
    renderWith(<DirectoryTab canSee />);
    const card = await screen.findByRole('article', { name: 'Grace Hopper' });
    expect(within(card).getByText('Agent engineer · Navy Labs')).toBeVisible();
    expect(within(card).getByText('Night owls')).toBeVisible();
    expect(within(card).getByRole('link', { name: 'Agent compiler' })).toHaveAttribute(
      'href',
      'https://example.com/c',
    );
    expect(screen.getByRole('status')).toHaveTextContent('1 member');
    await user.type(screen.getByRole('searchbox', { name: 'Search the directory' }), 'paris');
    expect(await screen.findByText('Nobody matches “paris”')).toBeVisible();
    expect(api.to('GET', '/api/members/directory?q=paris').length).toBeGreaterThan(0);
  });

  it('offers a free member a subscription and asks the server for nothing', async () => {
    const api = mockApi({ 'GET /api/members/overview': () => json(200, {}) });
    renderWith(<DirectoryTab canSee={false} />);
    expect(screen.getByRole('button', { name: 'Subscribe to meet the tribe' })).toBeVisible();
    expect(api.to('GET', '/api/members/directory')).toHaveLength(0);
  });
});
