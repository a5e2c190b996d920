import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Assistant } from '@/lib/api-types/oauth';
import { createQueryClient } from '@/lib/query';
import { ToastRegion } from '@/lib/toast';
import { structuralViolations } from '@/test/axe';
import { apiError, json, mockApi, resetAuthState } from '@/test/mock-api';
import { AssistantsAdmin } from './AssistantsAdmin';
import { ConnectedAssistants } from './ConnectedAssistants';

const claude: Assistant = {
  client_id: 'https://claude.example/oauth/client.json',
  name: 'Claude',
  scopes: ['tribe:read', 'tribe:write'],
  created_at: '2026-12-01T10:00:00Z',
  last_used_at: '2026-12-06T18:30:00Z',
};
const inspector: Assistant = {
  client_id: 'c_inspector',
  name: 'MCP Inspector',
  scopes: ['tribe:read'],
  created_at: '2026-12-02T09:00:00Z',
  last_used_at: null,
};

function renderWith(node: React.ReactNode) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      {node}
      <ToastRegion />
    </QueryClientProvider>,
  );
}

describe('connected assistants in Profile', () => {
  beforeEach(() => resetAuthState());

  it('lists each assistant with what it may do and when it last acted, and revokes one after asking', async () => {
    let assistants = [claude, inspector];
    const api = mockApi({
      'GET /api/members/me/assistants': () => json(200, { assistants }),
      'DELETE /api/members/me/assistants/https%3A%2F%2Fclaude.example%2Foauth%2Fclient.json':
        () => {
          assistants = [inspector];
          return new Response(null, { status: 204 });
        },
    });
    const { container } = renderWith(<ConnectedAssistants />);
    const list = await screen.findByRole('list', { name: 'Connected assistants' });
    const items = within(list)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement === list);
    expect(items).toHaveLength(2);
    expect(within(items[0] as HTMLElement).getByText('Claude')).toBeInTheDocument();
    expect(
      within(items[0] as HTMLElement).getByRole('list', { name: 'What Claude may do' }),
    ).toHaveTextContent(/RSVP to sessions, hold a booking for you to pay/);
    expect(items[0]).toHaveTextContent(/last used/);
    expect(items[1]).toHaveTextContent('not used yet');
    // The address to add to a client is the site's own /mcp.
    expect(screen.getByText(`${window.location.origin}/mcp`)).toBeInTheDocument();
    expect(await structuralViolations(container)).toEqual([]);

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Revoke Claude' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Disconnect Claude?' });
    expect(
      api.to(
        'DELETE',
        '/api/members/me/assistants/https%3A%2F%2Fclaude.example%2Foauth%2Fclient.json',
      ),
    ).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await screen.findByText('Claude can no longer act for you.');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Revoke Claude' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Revoke MCP Inspector' })).toBeInTheDocument();
  });

  it('says so when none is connected, and offers a retry when the list fails', async () => {
    let fail = true;
    mockApi({
      'GET /api/members/me/assistants': () =>
        fail ? apiError(500, 'internal', 'Something went wrong.') : json(200, { assistants: [] }),
    });
    renderWith(<ConnectedAssistants />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your connected assistants could not be loaded.');
    fail = false;
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No assistants connected')).toBeInTheDocument();
  });

  it('keeps the assistant and says why when the revoke fails', async () => {
    mockApi({
      'GET /api/members/me/assistants': () => json(200, { assistants: [inspector] }),
      'DELETE /api/members/me/assistants/c_inspector': () =>
        apiError(404, 'not_found', 'That assistant is not connected.'),
    });
    renderWith(<ConnectedAssistants />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Revoke MCP Inspector' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('That assistant is not connected.')).toBeInTheDocument();
    expect(screen.getByText('MCP Inspector')).toBeInTheDocument();
  });
});

describe('connected assistants in Admin', () => {
  beforeEach(() => resetAuthState());

  it('counts the members per client', async () => {
    mockApi({
      'GET /api/admin/assistants': () =>
        json(200, {
          clients: [
            { client_id: 'c1', name: 'Claude', members: 7, last_used_at: '2026-12-06T18:30:00Z' },
            { client_id: 'c2', name: 'VS Code', members: 2, last_used_at: null },
          ],
        }),
    });
    const { container } = renderWith(<AssistantsAdmin />);
    const claudeRow = await screen.findByRole('row', { name: /Claude/ });
    expect(within(claudeRow).getByText('7')).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /VS Code/ })).toHaveTextContent('not yet');
    expect(await structuralViolations(container)).toEqual([]);
  });
});
