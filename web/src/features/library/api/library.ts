import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiError, api, errorFromResponse, send } from '@/lib/api';
import type {
  ItemDetail,
  ItemEnvelope,
  ItemInput,
  ItemList,
  Progress,
  ProgressEnvelope,
  ProgressInput,
  Stats,
  TranscriptEnvelope,
  UploadInput,
  UploadState,
} from '@/lib/api-types/library';
import type { SessionList } from '@/lib/api-types/web';

/** The library's requests (docs/api.md, "Library"). Every query lives under `['library']`. */
export const libraryKeys = {
  all: ['library'] as const,
  list: (filters: LibraryFilters) => ['library', 'list', filters] as const,
  item: (id: string) => ['library', 'item', id] as const,
  stats: (id: string) => ['library', 'stats', id] as const,
  sessions: ['library', 'sessions'] as const,
};

export interface LibraryFilters {
  kind: string;
  tag: string;
  /** A live session's id: its replay and materials. */
  session: string;
  q: string;
}

const itemPath = (id: string) => `/api/library/${encodeURIComponent(id)}`;
const adminItemPath = (id: string) => `/api/admin/library/${encodeURIComponent(id)}`;
const uploadPath = (id: string) => `/api/admin/uploads/${encodeURIComponent(id)}`;

/** The query string of a list request, its parameters in a fixed order (kind, tag, session_id, q). */
export function listPath(filters: LibraryFilters): string {
  const params = new URLSearchParams();
  if (filters.kind) params.set('kind', filters.kind);
  if (filters.tag) params.set('tag', filters.tag);
  if (filters.session) params.set('session_id', filters.session);
  if (filters.q.trim()) params.set('q', filters.q.trim());
  const query = params.toString();
  return `/api/library${query ? `?${query}` : ''}`;
}

/** `GET /api/library`: the items a member sees, newest first. */
export function useLibrary(filters: LibraryFilters) {
  return useQuery({
    queryKey: libraryKeys.list(filters),
    queryFn: ({ signal }) => api.get<ItemList>(listPath(filters), signal).then((r) => r.items),
  });
}

/**
 * `GET /api/sessions`, for the titles and dates of the sessions items belong to (the session
 * filter and the admin's session picker). Asked only when `enabled`: a library whose items name
 * no session needs none.
 */
export function useSessionChoices(enabled: boolean) {
  return useQuery({
    queryKey: libraryKeys.sessions,
    queryFn: ({ signal }) => api.get<SessionList>('/api/sessions', signal).then((r) => r.sessions),
    enabled,
    staleTime: 60_000,
  });
}

/** `GET /api/library/{id}`: one item with its media address, chapters and transcript. */
export function itemQueryOptions(id: string) {
  return queryOptions({
    queryKey: libraryKeys.item(id),
    queryFn: ({ signal }) => api.get<ItemEnvelope>(itemPath(id), signal).then((r) => r.item),
    retry: false,
  });
}

export function useItem(id: string) {
  return useQuery(itemQueryOptions(id));
}

/**
 * `PUT /api/library/{id}/progress`. Sent with `keepalive` through the shared client's `send`, so a
 * save started as the page goes away (pagehide, leaving the item) still reaches the server.
 */
export async function saveProgress(id: string, input: ProgressInput): Promise<Progress> {
  const res = await send(`${itemPath(id)}/progress`, {
    method: 'PUT',
    credentials: 'same-origin',
    keepalive: true,
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(input),
  });
  if (!res.ok) throw await errorFromResponse(res);
  return ((await res.json()) as ProgressEnvelope).progress;
}

/**
 * Saves the place in an item and keeps the cache in step: the item's own progress set, the lists
 * marked stale, so going back to the list or reopening the item shows where the member is.
 */
export function useProgressSaver(id: string) {
  const client = useQueryClient();
  return useCallback(
    (input: ProgressInput) =>
      saveProgress(id, input).then((progress) => {
        client.setQueryData<ItemDetail>(libraryKeys.item(id), (old) =>
          old ? { ...old, progress } : old,
        );
        void client.invalidateQueries({ queryKey: ['library', 'list'], refetchType: 'none' });
        return progress;
      }),
    [client, id],
  );
}

/** A mutation that refetches the library's lists and items once it succeeds. */
function useLibraryMutation<A, R>(fn: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => client.invalidateQueries({ queryKey: libraryKeys.all }),
  });
}

export function useMarkCompleted() {
  return useLibraryMutation(
    ({ id, position, completed }: { id: string; position: number; completed: boolean }) =>
      saveProgress(id, { position_s: position, completed }),
  );
}

export function useCreateItem() {
  return useLibraryMutation(
    async (input: ItemInput): Promise<ItemDetail> =>
      (await api.post<ItemEnvelope>('/api/admin/library', input)).item,
  );
}

export function useUpdateItem() {
  return useLibraryMutation(
    async ({ id, patch }: { id: string; patch: ItemInput }): Promise<ItemDetail> =>
      (await api.patch<ItemEnvelope>(adminItemPath(id), patch)).item,
  );
}

export function useDeleteItem() {
  return useLibraryMutation((id: string) => api.delete<void>(adminItemPath(id)));
}

export function useAttachMedia() {
  return useLibraryMutation(
    async ({ id, uploadId }: { id: string; uploadId: string }): Promise<ItemDetail> =>
      (await api.put<ItemEnvelope>(`${adminItemPath(id)}/media`, { upload_id: uploadId })).item,
  );
}

/**
 * `PUT /api/admin/library/{id}/transcript`: the WebVTT or SRT text as is (not JSON), answered
 * with the parsed cues; a malformed file is a 400 whose message names the line.
 */
export async function putTranscript(id: string, text: string) {
  const res = await send(`${adminItemPath(id)}/transcript`, {
    method: 'PUT',
    credentials: 'same-origin',
    headers: { Accept: 'application/json' },
    body: new Blob([text], { type: 'text/plain; charset=utf-8' }),
  });
  if (!res.ok) throw await errorFromResponse(res);
  return ((await res.json()) as TranscriptEnvelope).transcript;
}

export function usePutTranscript() {
  return useLibraryMutation(({ id, text }: { id: string; text: string }) =>
    putTranscript(id, text),
  );
}

/** `GET /api/admin/library/{id}/stats`: how many members started and finished the item. */
export function useStats(id: string, enabled: boolean) {
  return useQuery({
    queryKey: libraryKeys.stats(id),
    queryFn: ({ signal }) => api.get<Stats>(`${adminItemPath(id)}/stats`, signal),
    enabled,
  });
}

/** 8 MiB: the smallest chunk docs/api.md advises, well within the server's 60-second limit. */
export const CHUNK_SIZE = 8 * 1024 * 1024;

/**
 * The chunk for a file of `total` bytes: 8 MiB, but at most a twentieth of a smaller file (and at
 * least 256 KiB), because progress is known only between chunks — a 6 MiB file sent whole would
 * show 0 % until it is done.
 */
export function chunkFor(total: number): number {
  return Math.min(CHUNK_SIZE, Math.max(256 * 1024, Math.ceil(total / 20)));
}

export interface UploadOptions {
  /** Bytes the server holds so far, after each chunk. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
  chunkSize?: number;
  /** Attempts per chunk before giving up. */
  retries?: number;
  /** Wait before a retry, by attempt (1, 2, …), in milliseconds. */
  backoff?: (attempt: number) => number;
}

const defaultBackoff = (attempt: number) => Math.min(1000 * 2 ** (attempt - 1), 15_000);

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('Aborted', 'AbortError'));
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('Aborted', 'AbortError'));
      },
      { once: true },
    );
  });
}

/** The offset an upload answer carries: the `Upload-Offset` header, else null. */
function headerOffset(res: Response): number | null {
  const raw = res.headers.get('Upload-Offset');
  if (raw === null || !/^\d+$/.test(raw)) return null;
  return Number(raw);
}

/**
 * Uploads a file with the server's resumable chunked scheme: `POST /api/admin/uploads`, then each
 * chunk as `PATCH` with `Content-Range`. After a failed chunk it asks the server where to resume —
 * the `409`'s `Upload-Offset`, else `GET /api/admin/uploads/{id}` — and sends from there. Resolves
 * with the upload's id once the server holds every byte.
 */
export async function uploadFile(file: Blob & { name?: string }, options: UploadOptions = {}) {
  const {
    onProgress,
    signal,
    chunkSize = chunkFor(file.size),
    retries = 5,
    backoff = defaultBackoff,
  } = options;
  const input: UploadInput = {
    filename: file.name || 'upload',
    size: file.size,
    content_type: file.type,
  };
  const created = await api.post<UploadState>('/api/admin/uploads', input);
  const id = created.upload_id;
  const total = file.size;
  let offset = created.offset;
  let failures = 0;
  onProgress?.(offset, total);
  while (offset < total) {
    const end = Math.min(offset + chunkSize, total);
    let res: Response | null = null;
    let failure: unknown = null;
    try {
      res = await send(uploadPath(id), {
        method: 'PATCH',
        credentials: 'same-origin',
        headers: {
          Accept: 'application/json',
          'Content-Type': 'application/offset+octet-stream',
          'Content-Range': `bytes ${offset}-${end - 1}/${total}`,
        },
        body: file.slice(offset, end),
        signal,
      });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      failure = cause;
    }
    if (res?.ok) {
      const state = (await res.json()) as UploadState;
      offset = state.offset;
      failures = 0;
      onProgress?.(offset, total);
      continue;
    }
    if (res) failure = await errorFromResponse(res.clone());
    // A refusal that no retry can mend (the upload is gone, or the request is not allowed).
    if (
      failure instanceof ApiError &&
      (failure.status === 401 || failure.status === 403 || failure.status === 404)
    ) {
      throw failure;
    }
    failures += 1;
    if (failures > retries) throw failure;
    const told = res && res.status === 409 ? headerOffset(res) : null;
    if (told !== null) {
      offset = told;
    } else {
      await wait(backoff(failures), signal);
      try {
        offset = (await api.get<UploadState>(uploadPath(id), signal)).offset;
      } catch (cause) {
        // Still offline: the next attempt sends from the last known offset and asks again.
        if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
        if (cause instanceof ApiError && cause.status === 404) throw cause;
      }
    }
    onProgress?.(offset, total);
  }
  return id;
}
