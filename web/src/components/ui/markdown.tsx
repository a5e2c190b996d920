import { createContext, Fragment, type ReactNode, useContext } from 'react';
import { cn } from '@/lib/cn';

/**
 * A small Markdown renderer for AI answers. It understands paragraphs, headings, bulleted and
 * numbered lists, fenced code blocks, bold, italic, inline code, links and bare web addresses, and
 * builds React elements for them, so any HTML in the text is shown as text and never parsed. Links
 * are kept only when they point to http(s); anything else (javascript:, data:) is shown as plain
 * text.
 */

type Block =
  | { kind: 'paragraph'; lines: string[] }
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'list'; ordered: boolean; start: number; items: string[] }
  | { kind: 'code'; language: string; text: string };

const FENCE = /^\s*```\s*([\w+-]*)\s*$/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*(\d{1,9})[.)]\s+(.*)$/;

/** Splits Markdown text into blocks; exported for the tests. */
export function parseBlocks(text: string): Block[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] | null = null;
  let list: Extract<Block, { kind: 'list' }> | null = null;
  const endOpen = () => {
    paragraph = null;
    list = null;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = FENCE.exec(line);
    if (fence) {
      endOpen();
      const body: string[] = [];
      i++;
      // An answer still streaming may not have its closing fence yet: the rest is code so far.
      while (i < lines.length && !/^\s*```\s*$/.test(lines[i] ?? '')) {
        body.push(lines[i] ?? '');
        i++;
      }
      blocks.push({ kind: 'code', language: fence[1] ?? '', text: body.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      endOpen();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      endOpen();
      blocks.push({ kind: 'heading', level: heading[1]?.length ?? 1, text: heading[2] ?? '' });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    if (bullet || numbered) {
      const ordered = numbered !== null;
      const item = (bullet ? bullet[1] : numbered?.[2]) ?? '';
      const open: Extract<Block, { kind: 'list' }> | null = list;
      if (open !== null && open.ordered === ordered) {
        open.items.push(item);
      } else {
        paragraph = null;
        const start = numbered ? Number(numbered[1]) : 1;
        const next: Extract<Block, { kind: 'list' }> = {
          kind: 'list',
          ordered,
          start,
          items: [item],
        };
        blocks.push(next);
        list = next;
      }
      continue;
    }
    const openList: Extract<Block, { kind: 'list' }> | null = list;
    if (openList !== null && /^\s+/.test(line)) {
      // An indented line goes on with the last item.
      const last = openList.items.length - 1;
      openList.items[last] = `${openList.items[last]}\n${line.trim()}`;
      continue;
    }
    list = null;
    const openParagraph: string[] | null = paragraph;
    if (openParagraph !== null) {
      openParagraph.push(line);
    } else {
      const next: string[] = [line];
      blocks.push({ kind: 'paragraph', lines: next });
      paragraph = next;
    }
  }
  return blocks;
}

/** The address when it is an absolute http(s) URL, otherwise null. */
export function safeHref(raw: string): string | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

// One inline element: code, a [link](url), **bold**, __bold__, *italic*, _italic_ (not inside a
// word, so snake_case stays as it is) or a bare http(s) address.
const INLINE =
  /`([^`\n]+)`|\[([^\]\n]+)\]\(([^()\s]+)\)|\*\*(.+?)\*\*|__(.+?)__|\*([^*\s](?:[^*\n]*[^*\s])?)\*|(?<![\w])_([^_\s](?:[^_\n]*[^_\s])?)_(?![\w])|(https?:\/\/[^\s<>"'`]+)/g;

// Punctuation that ends a sentence rather than an address.
const TRAILING = /[.,;:!?'")\]]+$/;

/** The `rel` of rendered links: members' posts say `nofollow ugc noopener` (user content). */
const LinkRel = createContext('noopener noreferrer nofollow');

function ExternalAnchor({ href, children }: { href: string; children: ReactNode }) {
  const rel = useContext(LinkRel);
  return (
    <a
      href={href}
      target="_blank"
      rel={rel}
      className="break-words text-term-cyan underline underline-offset-2 hover:text-fg"
    >
      {children}
    </a>
  );
}

/** Turns one line's inline Markdown into React nodes. */
function inline(text: string, key: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let n = 0;
  for (const m of text.matchAll(INLINE)) {
    const at = m.index ?? 0;
    const whole = m[0];
    if (at > last) out.push(text.slice(last, at));
    const k = `${key}.${n++}`;
    const [, code, label, url, bold1, bold2, em1, em2, bare] = m;
    if (code !== undefined) {
      out.push(
        <code key={k} className="rounded bg-ink-800 px-1 py-0.5 text-[0.9em] text-term-cyan">
          {code}
        </code>,
      );
    } else if (label !== undefined && url !== undefined) {
      const href = safeHref(url);
      out.push(
        href ? (
          <ExternalAnchor key={k} href={href}>
            {inline(label, k)}
          </ExternalAnchor>
        ) : (
          <Fragment key={k}>{inline(label, k)}</Fragment>
        ),
      );
    } else if (bold1 !== undefined || bold2 !== undefined) {
      out.push(
        <strong key={k} className="font-semibold text-fg">
          {inline(bold1 ?? bold2 ?? '', k)}
        </strong>,
      );
    } else if (em1 !== undefined || em2 !== undefined) {
      out.push(<em key={k}>{inline(em1 ?? em2 ?? '', k)}</em>);
    } else if (bare !== undefined) {
      const tail = TRAILING.exec(bare)?.[0] ?? '';
      const address = bare.slice(0, bare.length - tail.length);
      const href = safeHref(address);
      out.push(
        href ? (
          <ExternalAnchor key={k} href={href}>
            {address}
          </ExternalAnchor>
        ) : (
          address
        ),
      );
      // The punctuation is text again; the scan goes on after it.
      if (tail) out.push(tail);
    }
    last = at + whole.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Lines of one paragraph or list item, with line breaks between them. */
function lines(text: string[], key: string): ReactNode[] {
  return text.flatMap((line, i) => {
    const nodes = inline(line, `${key}.${i}`);
    return i === 0
      ? nodes
      : [
          // biome-ignore lint/suspicious/noArrayIndexKey: lines never reorder, the text only grows at its end
          <br key={`${key}.br${i}`} />,
          ...nodes,
        ];
  });
}

const headingClass = 'font-semibold text-fg';

export interface MarkdownProps {
  text: string;
  className?: string;
  /** The links' `rel`; `noopener noreferrer nofollow` unless given. */
  linkRel?: string;
}

/** Renders Markdown text (an AI answer) as safe React elements. */
export function Markdown({ text, className, linkRel }: MarkdownProps) {
  const body = <MarkdownBlocks text={text} className={className} />;
  return linkRel ? <LinkRel.Provider value={linkRel}>{body}</LinkRel.Provider> : body;
}

function MarkdownBlocks({ text, className }: { text: string; className?: string | undefined }) {
  const blocks = parseBlocks(text);
  return (
    <div className={cn('flex min-w-0 flex-col gap-3 break-words', className)}>
      {blocks.map((block, i) => {
        // Blocks only ever grow at the end while an answer streams, so the index is stable.
        const key = `b${i}`;
        switch (block.kind) {
          case 'paragraph':
            return <p key={key}>{lines(block.lines, key)}</p>;
          case 'heading': {
            const Tag = block.level <= 1 ? 'h3' : block.level === 2 ? 'h4' : 'h5';
            return (
              <Tag key={key} className={headingClass}>
                {inline(block.text, key)}
              </Tag>
            );
          }
          case 'list': {
            const items = block.items.map((item, j) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: items never reorder, the text only grows at its end
              <li key={`${key}.${j}`}>{lines(item.split('\n'), `${key}.${j}`)}</li>
            ));
            return block.ordered ? (
              <ol
                key={key}
                start={block.start === 1 ? undefined : block.start}
                className="list-decimal space-y-1 pl-6"
              >
                {items}
              </ol>
            ) : (
              <ul key={key} className="list-disc space-y-1 pl-6">
                {items}
              </ul>
            );
          }
          case 'code':
            return (
              <pre
                key={key}
                className="overflow-x-auto rounded-md border border-ink-700 bg-ink-950 p-3 text-xs leading-relaxed"
              >
                <code data-language={block.language || undefined}>{block.text}</code>
              </pre>
            );
          default:
            return null;
        }
      })}
    </div>
  );
}
