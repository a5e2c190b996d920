import type { Chapter, Cue, Item } from '@/lib/api-types/library';

/** The kinds of item, in the filter's order, with their labels. */
export const KINDS = ['recording', 'material', 'lesson', 'link'] as const;

export const KIND_LABELS: Record<string, string> = {
  recording: 'Recording',
  material: 'Material',
  lesson: 'Lesson',
  link: 'Link',
};

/** The path of the Library tab, and of one item in it (optionally starting at a second). */
export const LIBRARY_PATH = '/members/library';

export function itemPath(id: string, t?: number): string {
  const base = `${LIBRARY_PATH}/${encodeURIComponent(id)}`;
  return t !== undefined ? `${base}?t=${Math.floor(t)}` : base;
}

/** The item id of a members-area path, or null when it names none. */
export function itemIdOf(pathname: string): string | null {
  const m = /^\/members\/library\/([^/]+)\/?$/.exec(pathname);
  return m?.[1] ? decodeURIComponent(m[1]) : null;
}

/** The `t` query parameter as whole seconds, or null when absent or not a number. */
export function startParam(search: string): number | null {
  const raw = new URLSearchParams(search).get('t');
  if (raw === null || !/^\d+(\.\d+)?$/.test(raw)) return null;
  return Math.floor(Number(raw));
}

/** A time as a clock: 75 → "1:15", 3725 → "1:02:05". */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** A duration in words for a card: "45 min", "1 h 5 min", "40 s"; "" when unknown. */
export function durationLabel(seconds: number): string {
  if (seconds <= 0) return '';
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** How far a member is into an item, 0 to 100. */
export function percent(item: Pick<Item, 'duration_s' | 'progress'>): number {
  if (item.progress.completed) return 100;
  if (item.duration_s <= 0) return 0;
  return Math.min(100, Math.round((item.progress.position_s / item.duration_s) * 100));
}

/** What a locked item asks for, in words. */
export function lockText(item: Pick<Item, 'lock_reason' | 'min_level' | 'required_level'>): string {
  if (item.lock_reason === 'membership') return 'Subscribe to open';
  const name = item.required_level ? ` (${item.required_level})` : '';
  return `Reach level ${item.min_level}${name} to open`;
}

/** The index of the cue playing at `time`, or -1 (the last one started when cues overlap). */
export function activeCue(cues: Cue[], time: number): number {
  let found = -1;
  for (let i = 0; i < cues.length; i++) {
    const cue = cues[i] as Cue;
    if (cue.start > time) break;
    if (time < cue.end) found = i;
  }
  return found;
}

/** Where playback starts: the link's `t`, else the saved place (from 0 once completed). */
export function startAt(t: number | null, progress: Item['progress'], duration: number): number {
  if (t !== null) return t;
  if (progress.completed) return 0;
  if (duration > 0 && progress.position_s >= duration - 5) return 0;
  return progress.position_s;
}

/** The time left of an upload as words, from the bytes sent, the total and the elapsed ms. */
export function timeLeft(sent: number, total: number, elapsedMs: number): string {
  if (sent <= 0 || elapsedMs <= 0 || sent >= total) return '';
  const rate = sent / elapsedMs; // bytes per ms
  const seconds = Math.ceil((total - sent) / rate / 1000);
  if (seconds < 60) return `about ${seconds} s left`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  return `about ${Math.floor(minutes / 60)} h ${minutes % 60} min left`;
}

/** A size in words: 1536 → "1.5 KB". */
export function sizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** Chapters as the admin's text: one a line, "12:30 Questions". */
export function chaptersText(chapters: Chapter[]): string {
  return chapters.map((c) => `${clock(c.start_s)} ${c.title}`).join('\n');
}

/**
 * Reads the admin's chapter lines ("12:30 Questions", "1:02:05 Wrap-up"), sorted by start, or
 * the message naming the first line that is not one.
 */
export function parseChapters(text: string): Chapter[] | string {
  const chapters: Chapter[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === '') continue;
    const m = /^(?:(\d+):)?(\d{1,2}):(\d{2})\s+(.+)$/.exec(line);
    if (!m) return `Chapters, line ${i + 1}: start with a time such as 12:30, then the title.`;
    const [, h = '0', min = '0', sec = '0', title = ''] = m;
    chapters.push({
      start_s: Number(h) * 3600 + Number(min) * 60 + Number(sec),
      title: title.trim(),
    });
  }
  return chapters.sort((a, b) => a.start_s - b.start_s);
}
