import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '@/lib/query';
import { createMemoryHistory, Router } from '@/lib/router';
import { structuralViolations } from '@/test/axe';
import { apiError, json, mockApi, resetAuthState } from '@/test/mock-api';
import { CHUNK_SIZE, chunkFor, uploadFile } from './api/library';
import { LibraryTab } from './LibraryTab';
import { libraryDetail } from './test-fixtures';

const UPLOADS = '/api/admin/uploads';
const UPLOAD = '/api/admin/uploads/u1';

function state(offset: number, size: number) {
  return { upload_id: 'u1', offset, size, complete: offset === size };
}

function withOffset(status: number, body: unknown, offset: number): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'Upload-Offset': String(offset) },
  });
}

/** The Content-Range headers of the PATCH requests sent so far. */
function ranges(calls: ReadonlyArray<ReadonlyArray<unknown>>): string[] {
  return calls
    .filter(([path, init]) => path === UPLOAD && (init as RequestInit).method === 'PATCH')
    .map(([, init]) => (init as RequestInit & { headers: Record<string, string> }).headers)
    .map((h) => h['Content-Range'] ?? '');
}

describe('the chunked upload', () => {
  beforeEach(() => resetAuthState());

  it('resumes from the offset of a 409 and from the server’s state after a dropped chunk', async () => {
    let patches = 0;
    let held = 0;
    const api = mockApi({
      [`POST ${UPLOADS}`]: () => json(201, state(0, 10)),
      [`PATCH ${UPLOAD}`]: () => {
        patches++;
        // The second chunk's answer was lost, though the server kept its bytes (4 to 7) …
        if (patches === 2) {
          held = 8;
          return apiError(500, 'server_error', 'Lost');
        }
        // … so the next one the page sends (from 4) is refused with where to go on.
        if (patches === 3)
          return withOffset(409, { error: { code: 'conflict', message: 'offset 8' } }, 8);
        held = Math.min(held + 4, 10);
        return withOffset(200, state(held, 10), held);
      },
      [`GET ${UPLOAD}`]: () => json(200, state(4, 10)),
    });
    const seen: number[] = [];
    const id = await uploadFile(new File(['0123456789'], 'call.mp4', { type: 'video/mp4' }), {
      chunkSize: 4,
      backoff: () => 0,
      onProgress: (sent) => seen.push(sent),
    });
    expect(id).toBe('u1');
    expect(api.to('POST', UPLOADS)[0]?.body).toEqual({
      filename: 'call.mp4',
      size: 10,
      content_type: 'video/mp4',
    });
    expect(ranges(api.fetchMock.mock.calls)).toEqual([
      'bytes 0-3/10',
      'bytes 4-7/10',
      'bytes 4-7/10',
      'bytes 8-9/10',
    ]);
    expect(seen.at(-1)).toBe(10);
  });

  it('keeps trying through a dropped connection, asking again where to resume', async () => {
    let patches = 0;
    let gets = 0;
    const api = mockApi({
      [`POST ${UPLOADS}`]: () => json(201, state(0, 4)),
      [`PATCH ${UPLOAD}`]: () => {
        patches++;
        if (patches === 1) throw new TypeError('Failed to fetch');
        return withOffset(200, state(4, 4), 4);
      },
      [`GET ${UPLOAD}`]: () => {
        gets++;
        if (gets === 1) throw new TypeError('Failed to fetch');
        return json(200, state(0, 4));
      },
    });
    await expect(
      uploadFile(new File(['0123'], 'a.mp3'), { chunkSize: 4, backoff: () => 0 }),
    ).resolves.toBe('u1');
    expect(ranges(api.fetchMock.mock.calls)).toEqual(['bytes 0-3/4', 'bytes 0-3/4']);
  });

  it('gives up after its retries, with the server’s message', async () => {
    mockApi({
      [`POST ${UPLOADS}`]: () => json(201, state(0, 4)),
      [`PATCH ${UPLOAD}`]: () => apiError(500, 'server_error', 'Disk full'),
      [`GET ${UPLOAD}`]: () => json(200, state(0, 4)),
    });
    await expect(
      uploadFile(new File(['0123'], 'a.mp3'), { chunkSize: 4, retries: 2, backoff: () => 0 }),
    ).rejects.toThrow('Disk full');
  });
});

function renderAdmin() {
  const client = createQueryClient();
  const history = createMemoryHistory(['/members/library/r1']);
  return render(
    <QueryClientProvider client={client}>
      <Router history={history}>
        <LibraryTab isAdmin />
      </Router>
    </QueryClientProvider>,
  );
}

describe('the admin’s Manage panel', () => {
  beforeEach(() => resetAuthState());

  const base = {
    'GET /api/library/r1': () => json(200, { item: libraryDetail('r1', { title: 'Call 7' }) }),
    'GET /api/admin/library/r1/stats': () => json(200, { started: 12, finished: 5 }),
  };

  it('shows how many members started and finished the item', async () => {
    mockApi(base);
    renderAdmin();
    expect(await screen.findByText('12 started · 5 finished')).toBeInTheDocument();
    expect(await structuralViolations(document.body)).toEqual([]);
  });

  it('uploads a file with a progress bar, resuming after a refused chunk, then attaches it', async () => {
    let patches = 0;
    const api = mockApi({
      ...base,
      [`POST ${UPLOADS}`]: () => json(201, state(0, 6)),
      [`PATCH ${UPLOAD}`]: () => {
        patches++;
        if (patches === 1)
          return withOffset(409, { error: { code: 'conflict', message: 'offset 0' } }, 0);
        return withOffset(200, state(6, 6), 6);
      },
      'PUT /api/admin/library/r1/media': () =>
        json(200, { item: libraryDetail('r1', { title: 'Call 7' }) }),
    });
    const user = userEvent.setup();
    renderAdmin();
    const input = await screen.findByLabelText('Replace the file');
    await user.upload(input, new File(['abcdef'], 'call.mp4', { type: 'video/mp4' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(api.to('PUT', '/api/admin/library/r1/media')).toHaveLength(1));
    expect(api.to('PUT', '/api/admin/library/r1/media')[0]?.body).toEqual({ upload_id: 'u1' });
    expect(patches).toBe(2);
  });

  it('shows the progress bar while the chunks go', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    mockApi({
      ...base,
      [`POST ${UPLOADS}`]: () => json(201, state(0, 6)),
      [`PATCH ${UPLOAD}`]: async () => {
        await gate;
        return withOffset(200, state(6, 6), 6);
      },
      'PUT /api/admin/library/r1/media': () =>
        json(200, { item: libraryDetail('r1', { title: 'Call 7' }) }),
    });
    const user = userEvent.setup();
    renderAdmin();
    await user.upload(
      await screen.findByLabelText('Replace the file'),
      new File(['abcdef'], 'call.mp4', { type: 'video/mp4' }),
    );
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    const bar = await screen.findByRole('progressbar', { name: 'Upload progress' });
    expect(bar).toHaveAttribute('value', '0');
    expect(screen.getByText(/0 % · 0 B of 6 B/)).toBeInTheDocument();
    release();
    await waitFor(() =>
      expect(
        screen.queryByRole('progressbar', { name: 'Upload progress' }),
      ).not.toBeInTheDocument(),
    );
  });

  it('shows the server’s 400 naming the transcript’s line', async () => {
    const message = 'line 6: expected "-->" between the start and end times';
    const api = mockApi({
      ...base,
      'PUT /api/admin/library/r1/transcript': () => apiError(400, 'invalid', message, 'transcript'),
    });
    const user = userEvent.setup();
    renderAdmin();
    const box = await screen.findByRole('textbox', { name: /Transcript \(WebVTT or SRT\)/ });
    await user.click(box);
    await user.paste('WEBVTT\n\n00:00.000 00:04.000\nHello');
    await user.click(screen.getByRole('button', { name: 'Save transcript' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    const init = api.fetchMock.mock.calls.find(
      ([path]) => path === '/api/admin/library/r1/transcript',
    )?.[1];
    // The file as is, not JSON: a Blob of the pasted text's bytes.
    const body = init?.body;
    expect(body).toBeInstanceOf(Blob);
    expect((body as Blob).size).toBe('WEBVTT\n\n00:00.000 00:04.000\nHello'.length);
  });

  it('edits the item’s details, its chapters included', async () => {
    const api = mockApi({
      ...base,
      'PATCH /api/admin/library/r1': () =>
        json(200, { item: libraryDetail('r1', { title: 'Call 7 (edited)' }) }),
    });
    const user = userEvent.setup();
    renderAdmin();
    await user.click(await screen.findByRole('button', { name: 'Edit details' }));
    const chapters = screen.getByRole('textbox', { name: /^Chapters/ });
    await user.type(chapters, 'Intro');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Chapters, line 1');
    await user.clear(chapters);
    await user.type(chapters, '0:00 Intro{Enter}10:00 Questions');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('PATCH', '/api/admin/library/r1')).toHaveLength(1));
    expect(api.to('PATCH', '/api/admin/library/r1')[0]?.body).toMatchObject({
      title: 'Call 7',
      chapters: [
        { start_s: 0, title: 'Intro' },
        { start_s: 600, title: 'Questions' },
      ],
    });
  });

  it('tells the server a recording’s length when it has none, from the admin’s player', async () => {
    const api = mockApi({
      ...base,
      'GET /api/library/r1': () =>
        json(200, { item: libraryDetail('r1', { title: 'Call 7', duration_s: 0 }) }),
      'PATCH /api/admin/library/r1': () => json(200, { item: libraryDetail('r1') }),
    });
    renderAdmin();
    const video = await screen.findByLabelText('Call 7', { selector: 'video' });
    Object.defineProperty(video, 'duration', { configurable: true, value: 3599.6 });
    fireEvent.loadedMetadata(video);
    await waitFor(() => expect(api.to('PATCH', '/api/admin/library/r1')).toHaveLength(1));
    expect(api.to('PATCH', '/api/admin/library/r1')[0]?.body).toEqual({ duration_s: 3600 });
  });
});

describe('chunkFor', () => {
  it('sends a small file in about twenty chunks so its progress moves, and a large one in 8 MiB chunks', () => {
    const MiB = 1024 * 1024;
    expect(chunkFor(6 * MiB)).toBe(Math.ceil((6 * MiB) / 20));
    expect(Math.ceil((6 * MiB) / chunkFor(6 * MiB))).toBe(20);
    expect(chunkFor(1000)).toBe(256 * 1024);
    expect(chunkFor(4 * 1024 * MiB)).toBe(CHUNK_SIZE);
  });
});
