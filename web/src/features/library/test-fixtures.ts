import type { Item, ItemDetail } from '@/lib/api-types/library';

/** A library item as the list answers it, for the tests. */
export function libraryItem(id: string, over: Partial<Item> = {}): Item {
  return {
    id,
    kind: 'recording',
    title: `Item ${id}`,
    description: `About ${id}`,
    session_id: null,
    tags: ['agents'],
    duration_s: 3600,
    min_level: 0,
    required_level: '',
    locked: false,
    lock_reason: '',
    progress: { position_s: 0, completed: false },
    has_transcript: false,
    has_media: true,
    published_at: '2026-11-28T10:00:00Z',
    ...over,
  };
}

/** An item's detail, for the tests. */
export function libraryDetail(id: string, over: Partial<ItemDetail> = {}): ItemDetail {
  return {
    ...libraryItem(id),
    media_url: `/api/library/${id}/media`,
    media_type: 'video/mp4',
    media_size: 1000,
    url: '',
    embed_url: '',
    body: '',
    chapters: [],
    transcript: [],
    ...over,
  };
}
