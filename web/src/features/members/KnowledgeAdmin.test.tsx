import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Document as KnowledgeDocument, SeedResult } from '@/lib/api-types/kb';
import { createQueryClient } from '@/lib/query';
import { ToastRegion } from '@/lib/toast';
import { apiError, json, mockApi, resetAuthState } from '@/test/mock-api';
import { knowledgeGapsPath } from './api/get-knowledge-gaps';
import { DOCUMENTS_PAGE_SIZE, KnowledgeAdmin } from './KnowledgeAdmin';

const LIST = `/api/admin/documents?limit=${DOCUMENTS_PAGE_SIZE}&offset=0`;

function doc(id: string, extra: Partial<KnowledgeDocument> = {}): KnowledgeDocument {
  return {
    id,
    content: `Content of ${id}. Office hours are on Fridays at noon.`,
    metadata: {
      title: `Doc ${id}`,
      category: 'manual',
      type: 'document',
      source: 'manual',
      tags: ['faq'],
    },
    seeded: false,
    created_at: '2026-11-23T10:00:00.000Z',
    updated_at: '2026-11-23T10:00:00.000Z',
    ...extra,
  };
}

const seeded: SeedResult = {
  count: 23,
  message: 'Seeded 23 documents to knowledge base',
  breakdown: { about: 2, services: 4, projects: 7, stack: 3, contact: 2, community: 5 },
};

/** A fake document store behind the admin endpoints, first page only. */
function serveDocuments(initial: KnowledgeDocument[], extra: Parameters<typeof mockApi>[0] = {}) {
  let docs = [...initial];
  const api = mockApi({
    [`GET ${LIST}`]: () =>
      json(200, { documents: docs.slice(0, DOCUMENTS_PAGE_SIZE), total: docs.length }),
    'POST /api/admin/documents': (body) => {
      const b = body as { title: string; content: string; category?: string; tags?: string[] };
      const created = doc(`n${docs.length}`, {
        content: b.content,
        metadata: {
          title: b.title,
          category: b.category || 'manual',
          type: 'document',
          source: 'manual',
          tags: b.tags ?? [],
        },
      });
      docs = [created, ...docs];
      return json(201, { document: created });
    },
    [`GET ${knowledgeGapsPath()}`]: () =>
      json(200, { groups: [], since: '2026-08-25T10:00:00.000Z', total: 0 }),
    ...extra,
  });
  return {
    api,
    set: (next: KnowledgeDocument[]) => {
      docs = next;
    },
    get: () => docs,
  };
}

function renderPanel() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <KnowledgeAdmin />
      <ToastRegion />
    </QueryClientProvider>,
  );
}

async function expectToast(title: string, description?: string) {
  const heading = await screen.findByText(title, {}, { timeout: 5_000 });
  const toast = heading.closest('[data-sonner-toast]') as HTMLElement | null;
  expect(toast).not.toBeNull();
  if (description) expect(toast).toHaveTextContent(description);
}

function card(title: string): HTMLElement {
  return screen.getByRole('article', { name: title });
}

describe('knowledge base in the Admin tab', () => {
  beforeEach(() => resetAuthState());
  afterEach(() => resetAuthState());

  it('seeds, shows the breakdown per part and the toast, and refreshes the list', async () => {
    const store = serveDocuments([], {
      'POST /api/admin/kb/seed': () => {
        store.set([doc('s1', { seeded: true })]);
        return json(200, seeded);
      },
    });
    renderPanel();
    expect(await screen.findByText('No documents yet')).toBeVisible();

    const button = screen.getByRole('button', { name: 'Seed knowledge base' });
    await userEvent.click(button);
    await expectToast('Knowledge base seeded', 'Seeded 23 documents to knowledge base');
    expect(store.api.to('POST', '/api/admin/kb/seed')).toHaveLength(1);

    const breakdown = screen.getByLabelText('Seeded documents per part of the site');
    const counts = Object.fromEntries(
      within(breakdown)
        .getAllByRole('term')
        .map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
    );
    expect(counts).toEqual({
      About: '2',
      Services: '4',
      Projects: '7',
      Stack: '3',
      Contact: '2',
      Community: '5',
    });
    // The list was fetched again and shows the seeded document, marked as such.
    const item = await screen.findByRole('article', { name: 'Doc s1' });
    expect(within(item).getByText('Seeded')).toBeVisible();
    expect(screen.getByText(/rebuilt by the next seeding/)).toBeVisible();
  });

  it('shows Seeding failed with the server’s message, and is busy while it runs', async () => {
    let answer: (r: Response) => void = () => {};
    serveDocuments([], {
      'POST /api/admin/kb/seed': () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Seed knowledge base' }));
    const busy = await screen.findByRole('button', { name: 'Seeding…' });
    expect(busy).toBeDisabled();
    answer(apiError(500, 'internal', 'The knowledge base could not be seeded.'));
    await expectToast('Seeding failed', 'The knowledge base could not be seeded.');
    expect(screen.getByRole('button', { name: 'Seed knowledge base' })).toBeEnabled();
    expect(screen.queryByText('Community')).toBeNull();
  });

  it('falls back to Failed to seed knowledge base when the error has no message', async () => {
    serveDocuments([], {
      'POST /api/admin/kb/seed': () => apiError(500, 'internal', ''),
    });
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Seed knowledge base' }));
    await expectToast('Seeding failed', 'Failed to seed knowledge base');
  });

  it('lists documents with their metadata and a content preview', async () => {
    serveDocuments([
      doc('a', {
        seeded: true,
        metadata: {
          title: 'Services overview',
          category: 'services',
          type: 'consulting',
          source: '/content/services.json',
          tags: ['agents', 'consulting'],
        },
      }),
      doc('b'),
    ]);
    renderPanel();
    const item = await screen.findByRole('article', { name: 'Services overview' });
    expect(within(item).getByText('services')).toBeVisible();
    expect(within(item).getByText('consulting', { selector: 'dd' })).toBeVisible();
    expect(within(item).getByText('/content/services.json')).toBeVisible();
    expect(within(item).getByText('agents')).toBeVisible();
    expect(within(item).getByText(/Office hours are on Fridays/)).toBeVisible();
    expect(within(item).getByText('Seeded')).toBeVisible();
    expect(item.querySelector('time')).toHaveAttribute('dateTime', '2026-11-23T10:00:00.000Z');
    expect(within(card('Doc b')).queryByText('Seeded')).toBeNull();
    expect(screen.getByText(/2 documents, newest first/)).toBeVisible();
  });

  it('shows an error with a retry when the list cannot be loaded', async () => {
    let fail = true;
    serveDocuments([doc('a')], {
      [`GET ${LIST}`]: () =>
        fail
          ? apiError(403, 'forbidden', 'Admins only.')
          : json(200, { documents: [doc('a')], total: 1 }),
    });
    renderPanel();
    expect(await screen.findByText('The documents could not be loaded.')).toBeVisible();
    await expectToast('Error loading documents', 'Admins only.');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Doc a' })).toBeVisible();
  });

  it('pages through the list on the server', async () => {
    const all = Array.from({ length: DOCUMENTS_PAGE_SIZE + 3 }, (_, i) => doc(`p${i}`));
    const api = mockApi({
      [`GET ${LIST}`]: () =>
        json(200, { documents: all.slice(0, DOCUMENTS_PAGE_SIZE), total: all.length }),
      [`GET /api/admin/documents?limit=${DOCUMENTS_PAGE_SIZE}&offset=${DOCUMENTS_PAGE_SIZE}`]: () =>
        json(200, { documents: all.slice(DOCUMENTS_PAGE_SIZE), total: all.length }),
    });
    renderPanel();
    await screen.findByRole('article', { name: 'Doc p0' });
    expect(screen.getByText(`1–${DOCUMENTS_PAGE_SIZE} of ${all.length}`)).toBeVisible();
    expect(screen.getByRole('button', { name: /Newer/ })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: /Older/ }));
    expect(await screen.findByRole('article', { name: `Doc p${all.length - 1}` })).toBeVisible();
    expect(screen.queryByRole('article', { name: 'Doc p0' })).toBeNull();
    expect(
      screen.getByText(`${DOCUMENTS_PAGE_SIZE + 1}–${all.length} of ${all.length}`),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: /Older/ })).toBeDisabled();
    expect(api.calls.filter((c) => c.path.startsWith('/api/admin/documents'))).toHaveLength(2);
  });

  it('refuses an add without a title, sending nothing, then adds the document', async () => {
    const store = serveDocuments([doc('a')]);
    renderPanel();
    await screen.findByRole('article', { name: 'Doc a' });
    await userEvent.click(screen.getByRole('button', { name: 'Add document' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Content'), 'Refunds within 14 days.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add document' }));
    expect(within(dialog).getByText('Please fill in all required fields')).toBeVisible();
    expect(within(dialog).getByLabelText('Title')).toHaveFocus();
    expect(within(dialog).getByLabelText('Title')).toHaveAttribute('aria-invalid', 'true');
    expect(store.api.to('POST', '/api/admin/documents')).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText('Title'), 'Refund policy');
    await userEvent.type(within(dialog).getByLabelText(/Tags/), 'billing, faq');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add document' }));
    await expectToast('Document added successfully');
    expect(store.api.to('POST', '/api/admin/documents')[0]?.body).toEqual({
      title: 'Refund policy',
      content: 'Refunds within 14 days.',
      category: '',
      tags: ['billing', 'faq'],
    });
    const item = await screen.findByRole('article', { name: 'Refund policy' });
    expect(within(item).getByText('billing')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the server’s field error on its field', async () => {
    serveDocuments([], {
      'POST /api/admin/documents': () =>
        apiError(
          400,
          'invalid',
          'Tags must be a list of at most 20 words of up to 40 characters.',
          'tags',
        ),
    });
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Add document' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Title'), 'T');
    await userEvent.type(within(dialog).getByLabelText('Content'), 'C');
    await userEvent.type(within(dialog).getByLabelText(/Tags/), 'x'.repeat(41));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add document' }));
    const tags = within(dialog).getByLabelText(/Tags/);
    await waitFor(() => expect(tags).toHaveAttribute('aria-invalid', 'true'));
    expect(tags).toHaveAccessibleDescription(/Tags must be a list of at most 20 words/);
    expect(tags).toHaveFocus();
    expect(screen.getByRole('dialog')).toBeVisible();
  });

  it('edits the title and content only, showing the metadata and the seeding note', async () => {
    const original = doc('s', {
      seeded: true,
      metadata: {
        title: 'About Ada',
        category: 'about',
        type: 'bio',
        source: '/content/about.json',
        tags: ['about'],
      },
    });
    const store = serveDocuments([original], {
      'PUT /api/admin/documents/s': (body) => {
        const b = body as { title: string; content: string };
        const saved = {
          ...original,
          content: b.content,
          metadata: { ...original.metadata, title: b.title },
        };
        store.set([saved]);
        return json(200, { document: saved });
      },
    });
    renderPanel();
    await screen.findByRole('article', { name: 'About Ada' });
    await userEvent.click(screen.getByRole('button', { name: 'Edit About Ada' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('/content/about.json')).toBeVisible();
    expect(within(dialog).getByText(/an edit to one is temporary/)).toBeVisible();
    expect(within(dialog).queryByLabelText('Category')).toBeNull();
    const title = within(dialog).getByLabelText('Title');
    expect(title).toHaveValue('About Ada');
    await userEvent.clear(title);
    await userEvent.type(title, 'About Ada Lovelace');
    const content = within(dialog).getByLabelText('Content');
    await userEvent.clear(content);
    await userEvent.type(content, 'Mathematician.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save document' }));
    await expectToast('Document updated successfully');
    expect(store.api.to('PUT', '/api/admin/documents/s')[0]?.body).toEqual({
      title: 'About Ada Lovelace',
      content: 'Mathematician.',
    });
    const item = await screen.findByRole('article', { name: 'About Ada Lovelace' });
    expect(within(item).getByText('Mathematician.')).toBeVisible();
  });

  it('asks before deleting, and removes the document once confirmed', async () => {
    const store = serveDocuments([doc('a'), doc('b')], {
      'DELETE /api/admin/documents/a': () => {
        store.set(store.get().filter((d) => d.id !== 'a'));
        return new Response(null, { status: 204 });
      },
    });
    renderPanel();
    await screen.findByRole('article', { name: 'Doc a' });
    await userEvent.click(screen.getByRole('button', { name: 'Delete Doc a' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(within(confirm).getByText('Delete Doc a?')).toBeVisible();
    // Cancel keeps it.
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(store.api.to('DELETE', '/api/admin/documents/a')).toHaveLength(0);
    expect(card('Doc a')).toBeVisible();

    await userEvent.click(screen.getByRole('button', { name: 'Delete Doc a' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', {
        name: 'Delete document',
      }),
    );
    await expectToast('Document deleted successfully');
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Doc a' })).toBeNull());
    expect(card('Doc b')).toBeVisible();
    expect(store.api.to('DELETE', '/api/admin/documents/a')).toHaveLength(1);
  });
});

describe('Knowledge gaps', () => {
  beforeEach(() => resetAuthState());
  afterEach(() => resetAuthState());

  it('lists weakly answered questions with their count and starts a document titled with one', async () => {
    const store = serveDocuments([], {
      [`GET ${knowledgeGapsPath()}`]: () =>
        json(200, {
          since: '2026-08-25T10:00:00.000Z',
          total: 1,
          groups: [
            {
              id: 'g1',
              question: 'Do you run workshops on basket weaving?',
              count: 3,
              last_asked: '2026-11-22T09:00:00.000Z',
              others: ['basket weaving workshops'],
            },
          ],
        }),
    });
    renderPanel();
    const list = await screen.findByRole('list', { name: 'Knowledge gaps' });
    expect(within(list).getByText('Do you run workshops on basket weaving?')).toBeInTheDocument();
    expect(within(list).getByText(/asked 3 times/)).toBeInTheDocument();
    expect(within(list).getByText(/basket weaving workshops/)).toBeInTheDocument();

    await userEvent.click(
      within(list).getByRole('button', {
        name: 'Write a document answering “Do you run workshops on basket weaving?”',
      }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText(/Title/)).toHaveValue(
      'Do you run workshops on basket weaving?',
    );
    await userEvent.type(
      within(dialog).getByLabelText(/Content/),
      'No, but the tribe runs others.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add document' }));
    await waitFor(() =>
      expect(store.get()[0]?.metadata.title).toBe('Do you run workshops on basket weaving?'),
    );

    // Add document afterwards starts empty again.
    await userEvent.click(await screen.findByRole('button', { name: 'Add document' }));
    expect(within(await screen.findByRole('dialog')).getByLabelText(/Title/)).toHaveValue('');
  });

  it('says when there is no gap, and offers a retry when the list fails', async () => {
    let fail = true;
    serveDocuments([], {
      [`GET ${knowledgeGapsPath()}`]: () =>
        fail
          ? apiError(500, 'server_error', 'Something went wrong.')
          : json(200, { groups: [], since: '2026-08-25T10:00:00.000Z', total: 0 }),
    });
    renderPanel();
    expect(await screen.findByText('The knowledge gaps could not be loaded.')).toBeInTheDocument();
    fail = false;
    const gaps = screen.getByRole('region', { name: 'Knowledge gaps' });
    await userEvent.click(within(gaps).getByRole('button', { name: /Try again/ }));
    expect(await within(gaps).findByText('No knowledge gaps')).toBeInTheDocument();
  });

  it('loads the groups a page at a time', async () => {
    const group = (i: number) => ({
      id: `g${i}`,
      question: `Question number ${i}?`,
      count: 1,
      last_asked: '2026-11-22T09:00:00.000Z',
      others: [],
    });
    const store = serveDocuments([], {
      [`GET ${knowledgeGapsPath()}`]: () =>
        json(200, {
          since: '2026-08-25T10:00:00.000Z',
          total: 3,
          groups: [group(1), group(2)],
          next: 'after/2',
        }),
      [`GET ${knowledgeGapsPath('after/2')}`]: () =>
        json(200, { since: '2026-08-25T10:00:00.000Z', total: 3, groups: [group(3)] }),
    });
    renderPanel();
    const list = await screen.findByRole('list', { name: 'Knowledge gaps' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByText('2 of 3 groups shown')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(list).findByText('Question number 3?')).toBeInTheDocument();
    expect(screen.getByText('3 of 3 groups shown')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(store.api.to('GET', knowledgeGapsPath('after/2'))).toHaveLength(1);
  });
});
