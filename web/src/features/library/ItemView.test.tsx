import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ItemDetail } from '@/lib/api-types/library';
import { createQueryClient } from '@/lib/query';
import { createMemoryHistory, Router } from '@/lib/router';
import { structuralViolations } from '@/test/axe';
import { json, mockApi, resetAuthState } from '@/test/mock-api';
import { LibraryTab } from './LibraryTab';
import { libraryDetail } from './test-fixtures';

const ITEM = '/api/library/r1';
const PROGRESS = '/api/library/r1/progress';

const transcript = [
  { start: 0, end: 4, text: 'Welcome to the call.' },
  { start: 4, end: 9, text: 'Today: agents and memory.' },
  { start: 754, end: 760, text: 'The vector store question.' },
];

function renderItem(path: string, item: ItemDetail, extra = {}) {
  const api = mockApi({
    [`GET ${ITEM}`]: () => json(200, { item }),
    [`PUT ${PROGRESS}`]: (body) =>
      json(200, { progress: { completed: false, ...(body as object) } }),
    ...extra,
  });
  const client = createQueryClient();
  const history = createMemoryHistory([path]);
  const result = render(
    <QueryClientProvider client={client}>
      <Router history={history}>
        <LibraryTab
          isAdmin={false}
          subscribe={<button type="button">Subscribe</button>}
          levels={<button type="button">See the levels</button>}
        />
      </Router>
    </QueryClientProvider>,
  );
  return { api, history, ...result };
}

const recording = (over: Partial<ItemDetail> = {}) =>
  libraryDetail('r1', {
    title: 'Call 7',
    has_transcript: true,
    transcript,
    chapters: [
      { start_s: 0, title: 'Intro' },
      { start_s: 600, title: 'Questions' },
    ],
    ...over,
  });

async function player(): Promise<HTMLVideoElement> {
  const video = await screen.findByLabelText('Call 7', { selector: 'video' });
  return video as HTMLVideoElement;
}

describe('a library item', () => {
  beforeEach(() => resetAuthState());

  it('plays a recording in the browser’s player, loading only its metadata', async () => {
    renderItem('/members/library/r1', recording());
    const video = await player();
    expect(video.tagName).toBe('VIDEO');
    expect(video).toHaveAttribute('src', '/api/library/r1/media');
    expect(video).toHaveAttribute('preload', 'metadata');
    expect(await structuralViolations(document.body)).toEqual([]);
  });

  it('starts at ?t=, else at the saved place', async () => {
    const { unmount } = renderItem('/members/library/r1?t=754', recording());
    let video = await player();
    fireEvent.loadedMetadata(video);
    expect(video.currentTime).toBe(754);
    unmount();
    renderItem(
      '/members/library/r1',
      recording({ progress: { position_s: 321, completed: false } }),
    );
    video = await player();
    fireEvent.loadedMetadata(video);
    expect(video.currentTime).toBe(321);
  });

  it('seeks from a transcript cue and marks the playing cue current', async () => {
    const user = userEvent.setup();
    renderItem('/members/library/r1', recording());
    const video = await player();
    const cue = screen.getByRole('button', { name: /The vector store question/ });
    await user.click(cue);
    expect(video.currentTime).toBe(754);
    expect(cue).toHaveAttribute('aria-current', 'true');
    expect(screen.getByRole('button', { name: /Welcome to the call/ })).not.toHaveAttribute(
      'aria-current',
    );
    video.currentTime = 5;
    fireEvent.timeUpdate(video);
    expect(screen.getByRole('button', { name: /Today: agents and memory/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
  });

  it('seeks from a chapter, by keyboard too', async () => {
    const user = userEvent.setup();
    renderItem('/members/library/r1', recording());
    const video = await player();
    screen.getByRole('button', { name: /Questions/ }).focus();
    await user.keyboard('{Enter}');
    expect(video.currentTime).toBe(600);
  });

  it('answers its own keys: J and L skip 10 s, < and > change the speed, and says so', async () => {
    const user = userEvent.setup();
    renderItem('/members/library/r1', recording());
    const video = await player();
    expect(video).toHaveAccessibleDescription(/K plays or pauses, J and L go 10 s back/);
    video.focus();
    video.currentTime = 30;
    await user.keyboard('l');
    expect(video.currentTime).toBe(40);
    await user.keyboard('jj');
    expect(video.currentTime).toBe(20);
    video.currentTime = 4;
    await user.keyboard('J');
    expect(video.currentTime).toBe(0);
    await user.keyboard('>>');
    expect(video.playbackRate).toBe(1.5);
    expect(screen.getByRole('button', { name: 'Speed 1.5×' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await user.keyboard('<');
    expect(video.playbackRate).toBe(1.25);
    // A key with a modifier is the browser's.
    video.currentTime = 30;
    await user.keyboard('{Control>}l{/Control}');
    expect(video.currentTime).toBe(30);
  });

  it('saves the position on pause, and while playing every 10 seconds', async () => {
    const { api } = renderItem('/members/library/r1', recording());
    const video = await player();
    fireEvent.play(video);
    video.currentTime = 42.7;
    fireEvent.pause(video);
    await waitFor(() => expect(api.to('PUT', PROGRESS)).toHaveLength(1));
    expect(api.to('PUT', PROGRESS)[0]?.body).toEqual({ position_s: 42 });
    const init = api.fetchMock.mock.calls.find(([path]) => path === PROGRESS)?.[1];
    expect(init?.keepalive).toBe(true);
    // Playing on: no save before 10 seconds more, then one.
    Object.defineProperty(video, 'paused', { configurable: true, value: false });
    video.currentTime = 48;
    fireEvent.timeUpdate(video);
    video.currentTime = 53;
    fireEvent.timeUpdate(video);
    await waitFor(() => expect(api.to('PUT', PROGRESS)).toHaveLength(2));
    expect(api.to('PUT', PROGRESS)[1]?.body).toEqual({ position_s: 53 });
  });

  it('saves the position when the member leaves the item', async () => {
    const { api, unmount } = renderItem('/members/library/r1', recording());
    const video = await player();
    fireEvent.play(video);
    video.currentTime = 99;
    fireEvent.timeUpdate(video);
    unmount();
    await waitFor(() => expect(api.to('PUT', PROGRESS)).toHaveLength(1));
    expect(api.to('PUT', PROGRESS)[0]?.body).toEqual({ position_s: 99 });
  });

  it('saves the position when the page goes away', async () => {
    const { api } = renderItem('/members/library/r1', recording());
    const video = await player();
    fireEvent.play(video);
    video.currentTime = 61;
    fireEvent.timeUpdate(video);
    fireEvent(window, new Event('pagehide'));
    await waitFor(() => expect(api.to('PUT', PROGRESS)).toHaveLength(1));
    expect(api.to('PUT', PROGRESS)[0]?.body).toEqual({ position_s: 61 });
  });

  it('changes the playback speed, the chosen one pressed', async () => {
    const user = userEvent.setup();
    renderItem('/members/library/r1', recording());
    const video = await player();
    await user.click(screen.getByRole('button', { name: 'Speed 1.5×' }));
    expect(video.playbackRate).toBe(1.5);
    expect(screen.getByRole('button', { name: 'Speed 1.5×' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(screen.getByRole('button', { name: 'Speed 1×' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  it('marks the item completed', async () => {
    const user = userEvent.setup();
    const { api } = renderItem('/members/library/r1', recording());
    await player();
    await user.click(screen.getByRole('button', { name: 'Mark as completed' }));
    expect(await screen.findByText('Completed')).toBeInTheDocument();
    expect(api.to('PUT', PROGRESS)[0]?.body).toEqual({ position_s: 0, completed: true });
  });

  it('embeds a YouTube link in the privacy-enhanced player, with a title', async () => {
    renderItem(
      '/members/library/r1',
      recording({
        kind: 'link',
        media_url: '',
        media_type: '',
        transcript: [],
        chapters: [],
        url: 'https://youtu.be/abc',
        embed_url: 'https://www.youtube-nocookie.com/embed/abc',
      }),
    );
    const frame = await screen.findByTitle('Call 7 (video player)');
    expect(frame).toHaveAttribute('src', 'https://www.youtube-nocookie.com/embed/abc');
  });

  it('renders a lesson’s Markdown, and offers a material’s file', async () => {
    const { unmount } = renderItem(
      '/members/library/r1',
      recording({
        kind: 'lesson',
        media_url: '',
        transcript: [],
        body: '## Memory\n\nUse a **vector store**.',
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Memory' })).toBeInTheDocument();
    unmount();
    renderItem(
      '/members/library/r1',
      recording({ kind: 'material', media_type: 'application/zip', transcript: [] }),
    );
    expect(await screen.findByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      '/api/library/r1/media',
    );
  });

  it('shows a locked item’s requirement instead of its player', async () => {
    renderItem(
      '/members/library/r1',
      recording({
        locked: true,
        lock_reason: 'level',
        min_level: 2,
        required_level: 'Explorer',
        media_url: '',
        transcript: [],
      }),
    );
    expect(await screen.findByText('Reach level 2 (Explorer) to open')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'See the levels' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Subscribe' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Call 7', { selector: 'video' })).not.toBeInTheDocument();
  });
});
