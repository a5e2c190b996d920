/** The community's categories as members read them; `announcement` is for admins. */
export const CATEGORY_LABELS: Record<string, string> = {
  question: 'Question',
  win: 'Win',
  resource: 'Resource',
  general: 'General',
  announcement: 'Announcement',
};

/** Limits the server enforces, in characters. */
export const LIMITS = { title: 200, body: 20_000, reply: 10_000, reason: 500 } as const;

/** The deep link of a thread (and of one reply in it). */
export function threadPath(id: string, replyId?: string): string {
  return `/members/community/${encodeURIComponent(id)}${replyId ? `#reply-${replyId}` : ''}`;
}

/** The thread id of a members-area path, or null when it names none. */
export function threadIdOf(pathname: string): string | null {
  const m = /^\/members\/community\/([^/]+)\/?$/.exec(pathname);
  return m?.[1] ? decodeURIComponent(m[1]) : null;
}

/**
 * The partial mention being typed at the end of `text` (after an `@` that starts a word), or null.
 * "Hi @Ad" → "Ad".
 */
export function mentionQuery(text: string): string | null {
  const m = /(?:^|\s)@([\p{L}\p{N}][\p{L}\p{N} .'-]{0,40})?$/u.exec(text);
  if (!m) return null;
  return m[1] ?? '';
}

/** The names that complete a partial mention, at most `limit`. */
export function mentionMatches(names: readonly string[], partial: string, limit = 6): string[] {
  const p = partial.toLowerCase();
  return names.filter((n) => n.toLowerCase().startsWith(p) && n.length > 0).slice(0, limit);
}

/** `text` with the partial mention at its end completed to `@name `. */
export function completeMention(text: string, name: string): string {
  const at = text.lastIndexOf('@');
  return at < 0 ? `${text}@${name} ` : `${text.slice(0, at)}@${name} `;
}

/** "3 replies", "1 reply". */
export function repliesLabel(n: number): string {
  return `${n} ${n === 1 ? 'reply' : 'replies'}`;
}

/** A short date and time in the reader's locale. */
export function when(iso: string): string {
  return new Date(iso).toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}

/**
 * A knowledge-base document prefilled from an answered question: the question, then the accepted
 * answer, each under its heading, with where it came from.
 */
export function documentFrom(
  thread: { id: string; title: string; body: string },
  answer: { body: string; author: { full_name: string } },
): { title: string; content: string } {
  return {
    title: thread.title,
    content: `## Question\n\n${thread.body}\n\n## Answer\n\n${answer.body}\n\n_Answered by ${
      answer.author.full_name || 'a member'
    } in the tribe's community (${threadPath(thread.id)})._\n`,
  };
}
