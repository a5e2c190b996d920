import {
  ArrowLeft,
  CheckCircle2,
  Download,
  ExternalLink as ExternalIcon,
  Lock,
} from 'lucide-react';
import {
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Markdown } from '@/components/ui/markdown';
import { LoadError, LoadingBlock } from '@/components/ui/query-state';
import { ApiError, errorMessage } from '@/lib/api';
import type { Chapter, Cue, ItemDetail } from '@/lib/api-types/library';
import { cn } from '@/lib/cn';
import { Link, useLocation } from '@/lib/router';
import { toast } from '@/lib/toast';
import { useItem, useMarkCompleted, useProgressSaver, useUpdateItem } from './api/library';
import { ManagePanel } from './LibraryAdmin';
import {
  activeCue,
  clock,
  durationLabel,
  KIND_LABELS,
  LIBRARY_PATH,
  lockText,
  startAt,
  startParam,
} from './logic';

export interface ItemViewProps {
  id: string;
  isAdmin: boolean;
  subscribe?: ReactNode;
  levels?: ReactNode;
}

/** One item of the library at `/members/library/{id}?t=SECONDS`. */
export function ItemView({ id, isAdmin, subscribe, levels }: ItemViewProps) {
  const query = useItem(id);
  return (
    <article aria-labelledby="library-item-heading" className="flex flex-col gap-6">
      <Link
        to={LIBRARY_PATH}
        className="flex min-h-11 items-center gap-2 self-start text-sm text-muted hover:text-fg"
      >
        <ArrowLeft size={16} aria-hidden="true" />
        Back to the library
      </Link>
      {query.isPending ? (
        <LoadingBlock label="Loading the item…" />
      ) : query.isError ? (
        <LoadError
          titleId="library-item-heading"
          title={
            query.error instanceof ApiError && query.error.status === 404
              ? 'This item is not in the library.'
              : undefined
          }
          message={errorMessage(query.error)}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <ItemBody item={query.data} isAdmin={isAdmin} subscribe={subscribe} levels={levels} />
      )}
    </article>
  );
}

function ItemBody({
  item,
  isAdmin,
  subscribe,
  levels,
}: {
  item: ItemDetail;
  isAdmin: boolean;
  subscribe?: ReactNode;
  levels?: ReactNode;
}) {
  const duration = durationLabel(item.duration_s);
  return (
    <>
      <header className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center gap-2 text-xs">
          <Badge tone={item.kind === 'recording' ? 'cyan' : 'neutral'}>
            {KIND_LABELS[item.kind] ?? item.kind}
          </Badge>
          {duration ? <span className="text-dim">{duration}</span> : null}
          {item.tags.map((t) => (
            <span key={t} className="text-dim">
              #{t}
            </span>
          ))}
        </div>
        <h2 id="library-item-heading" className="break-words text-xl font-semibold text-fg">
          {item.title}
        </h2>
        {item.description ? (
          <p className="whitespace-pre-line break-words text-sm text-muted">{item.description}</p>
        ) : null}
      </header>
      {item.locked ? (
        <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="flex items-center gap-2 text-sm text-term-amber">
            <Lock size={16} aria-hidden="true" />
            {lockText(item)}
          </p>
          {item.lock_reason === 'membership' ? subscribe : levels}
        </Card>
      ) : (
        <ItemContent item={item} isAdmin={isAdmin} />
      )}
      {isAdmin ? <ManagePanel item={item} /> : null}
    </>
  );
}

function ItemContent({ item, isAdmin }: { item: ItemDetail; isAdmin: boolean }) {
  const playable =
    item.media_url !== '' &&
    (item.kind === 'recording' ||
      item.media_type.startsWith('video/') ||
      item.media_type.startsWith('audio/'));
  return (
    <>
      {playable ? (
        <Player item={item} isAdmin={isAdmin} />
      ) : item.embed_url ? (
        <>
          <div className="aspect-video w-full overflow-hidden rounded-lg border border-ink-700">
            <iframe
              src={item.embed_url}
              title={`${item.title} (video player)`}
              className="size-full"
              allow="fullscreen; picture-in-picture; encrypted-media"
              allowFullScreen
              referrerPolicy="strict-origin-when-cross-origin"
            />
          </div>
          <CompleteButton item={item} position={() => item.progress.position_s} />
        </>
      ) : null}
      {item.kind === 'lesson' && item.body ? (
        <>
          <Markdown text={item.body} className="flex flex-col gap-3 text-sm text-muted" />
          <CompleteButton item={item} position={() => 0} />
        </>
      ) : null}
      {!playable && item.media_url ? (
        <a
          href={item.media_url}
          className={cn(buttonClasses('outline'), 'self-start')}
          {...(item.media_type === 'application/pdf'
            ? { target: '_blank', rel: 'noopener' }
            : { download: '' })}
        >
          <Download size={16} aria-hidden="true" />
          {item.media_type === 'application/pdf' ? 'Open the PDF' : 'Download'}
        </a>
      ) : null}
      {!item.embed_url && item.url ? (
        <a
          href={item.url}
          target="_blank"
          rel="noopener noreferrer"
          className={cn(buttonClasses('outline'), 'self-start')}
        >
          <ExternalIcon size={16} aria-hidden="true" />
          Open the link
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      ) : null}
    </>
  );
}

const SPEEDS = [1, 1.25, 1.5, 2] as const;
/** Seconds of playback between two saves of the position. */
const SAVE_EVERY_S = 10;
/** Seconds J and L move the player. */
const SKIP_S = 10;

function Player({ item, isAdmin }: { item: ItemDetail; isAdmin: boolean }) {
  const update = useUpdateItem();
  const saveProgress = useProgressSaver(item.id);
  const { search } = useLocation();
  const t = startParam(search);
  const media = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const [time, setTime] = useState(() => startAt(t, item.progress, item.duration_s));
  const [speed, setSpeed] = useState<number>(1);
  const [playing, setPlaying] = useState(false);
  const lastSaved = useRef(item.progress.position_s);
  const started = useRef(false);
  const known = useRef(0);
  const isAudio = item.media_type.startsWith('audio/');
  const keysId = useId();

  const save = useCallback(() => {
    // On unmount the element is already gone: the last time it reported stands in.
    if (media.current) known.current = media.current.currentTime;
    if (!started.current) return;
    const position = Math.floor(known.current);
    if (position === lastSaved.current) return;
    lastSaved.current = position;
    saveProgress({ position_s: position }).catch(() => {
      // A lost save is retried by the next one; the place is at most a few seconds behind.
    });
  }, [saveProgress]);

  // Save on leaving the item (unmount) and on leaving the page (pagehide).
  // A phone's browser may discard a hidden tab without pagehide: save when it is hidden too.
  useEffect(() => {
    const hidden = () => {
      if (document.visibilityState === 'hidden') save();
    };
    window.addEventListener('pagehide', save);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      window.removeEventListener('pagehide', save);
      document.removeEventListener('visibilitychange', hidden);
      save();
    };
  }, [save]);

  const seek = useCallback((to: number) => {
    const el = media.current;
    if (!el) return;
    started.current = true;
    el.currentTime = to;
    known.current = to;
    setTime(to);
  }, []);

  // A new `t` in the address (a transcript link followed within the page) seeks there.
  useEffect(() => {
    if (t !== null && media.current && media.current.readyState > 0) seek(t);
  }, [t, seek]);

  const onLoaded = () => {
    const el = media.current;
    if (!el) return;
    const at = startAt(t, item.progress, item.duration_s);
    if (at > 0) el.currentTime = at;
    el.playbackRate = speed;
    // The server never reads the file, so an admin's player tells it the length it finds: the
    // members' progress and the 90 % mark need it.
    if (isAdmin && item.duration_s === 0 && Number.isFinite(el.duration) && el.duration >= 1) {
      update.mutate({
        id: item.id,
        patch: { duration_s: Math.min(86_400, Math.round(el.duration)) },
      });
    }
  };

  const onTimeUpdate = () => {
    const el = media.current;
    if (!el) return;
    known.current = el.currentTime;
    setTime(el.currentTime);
    if (!el.paused && Math.abs(el.currentTime - lastSaved.current) >= SAVE_EVERY_S) save();
  };

  const changeSpeed = (s: number) => {
    setSpeed(s);
    if (media.current) media.current.playbackRate = s;
  };

  // The player's own keys (as on the big video sites), beside the browser's: K plays or pauses,
  // J and L go 10 s back and forward, < and > change the speed.
  const onKeyDown = (e: KeyboardEvent<HTMLMediaElement>) => {
    const el = media.current;
    if (!el || e.altKey || e.ctrlKey || e.metaKey) return;
    const at = SPEEDS.indexOf(speed as (typeof SPEEDS)[number]);
    switch (e.key.toLowerCase()) {
      case 'k':
        if (el.paused) el.play()?.catch(() => {});
        else el.pause();
        break;
      case 'j':
        seek(Math.max(0, el.currentTime - SKIP_S));
        break;
      case 'l':
        seek(
          Number.isFinite(el.duration)
            ? Math.min(el.duration, el.currentTime + SKIP_S)
            : el.currentTime + SKIP_S,
        );
        break;
      case '>':
        changeSpeed(SPEEDS[Math.min(SPEEDS.length - 1, at + 1)] ?? speed);
        break;
      case '<':
        changeSpeed(SPEEDS[Math.max(0, at - 1)] ?? speed);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const common = {
    src: item.media_url,
    controls: true,
    preload: 'metadata' as const,
    onLoadedMetadata: onLoaded,
    onTimeUpdate,
    onPlay: () => {
      started.current = true;
      setPlaying(true);
    },
    onPause: () => {
      setPlaying(false);
      save();
    },
    onEnded: () => {
      setPlaying(false);
      save();
    },
    onSeeked: () => {
      if (media.current) setTime(media.current.currentTime);
    },
    onKeyDown,
    tabIndex: 0,
    'aria-describedby': keysId,
  };

  return (
    <div className="flex flex-col gap-4 lg:grid lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] lg:items-start">
      <div className="flex flex-col gap-3">
        {isAudio ? (
          <audio ref={media} {...common} aria-label={item.title} className="w-full" />
        ) : (
          <video
            ref={media}
            {...common}
            aria-label={item.title}
            playsInline
            className="aspect-video w-full rounded-lg border border-ink-700 bg-black"
          />
        )}
        <p id={keysId} className="text-xs text-dim">
          Keys on the player: K plays or pauses, J and L go 10 s back and forward, &lt; and &gt;
          change the speed.
        </p>
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between">
          <fieldset className="flex flex-wrap items-center gap-2">
            <legend className="sr-only">Playback speed</legend>
            {SPEEDS.map((s) => (
              <Button
                key={s}
                size="sm"
                variant={speed === s ? 'primary' : 'ghost'}
                aria-pressed={speed === s}
                aria-label={`Speed ${s}×`}
                onClick={() => changeSpeed(s)}
              >
                {s}×
              </Button>
            ))}
          </fieldset>
          <CompleteButton
            item={item}
            position={() => Math.floor(media.current?.currentTime ?? 0)}
          />
        </div>
        {item.chapters.length > 0 ? <Chapters chapters={item.chapters} onSeek={seek} /> : null}
      </div>
      {item.transcript.length > 0 ? (
        <Transcript cues={item.transcript} time={time} follow={playing} onSeek={seek} />
      ) : null}
    </div>
  );
}

function CompleteButton({ item, position }: { item: ItemDetail; position: () => number }) {
  const mark = useMarkCompleted();
  const [completed, setCompleted] = useState(item.progress.completed);
  const toggle = () => {
    const next = !completed;
    mark.mutate(
      { id: item.id, position: position(), completed: next },
      {
        onSuccess: (p) => setCompleted(p.completed),
        onError: (e) => void toast.error('Not saved', errorMessage(e)),
      },
    );
  };
  return completed ? (
    <div className="flex flex-wrap items-center gap-3">
      <p className="flex items-center gap-1 text-sm text-term-green">
        <CheckCircle2 size={16} aria-hidden="true" />
        Completed
      </p>
      <Button size="sm" variant="ghost" onClick={toggle} disabled={mark.isPending}>
        Mark as not completed
      </Button>
    </div>
  ) : (
    <Button size="sm" variant="outline" onClick={toggle} disabled={mark.isPending}>
      <CheckCircle2 size={16} aria-hidden="true" />
      Mark as completed
    </Button>
  );
}

function Chapters({ chapters, onSeek }: { chapters: Chapter[]; onSeek: (t: number) => void }) {
  return (
    <nav aria-label="Chapters">
      <h3 className="mb-2 text-sm font-semibold text-fg">Chapters</h3>
      <ol className="flex flex-col gap-1">
        {chapters.map((c) => (
          <li key={`${c.start_s}-${c.title}`}>
            <button
              type="button"
              onClick={() => onSeek(c.start_s)}
              className="flex min-h-11 w-full items-baseline gap-3 rounded-md px-2 text-left text-sm text-muted hover:bg-ink-800 hover:text-fg focus-visible:outline-2 focus-visible:outline-term-cyan"
            >
              <span className="font-mono text-xs text-term-cyan">{clock(c.start_s)}</span>
              <span className="break-words">{c.title}</span>
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}

function Transcript({
  cues,
  time,
  follow,
  onSeek,
}: {
  cues: Cue[];
  time: number;
  /** Keeps the current line in view within the list (while playing; never the page itself). */
  follow: boolean;
  onSeek: (t: number) => void;
}) {
  const current = activeCue(cues, time);
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const box = list.current;
    if (!follow || !box || current < 0) return;
    const line = box.children[current];
    if (!(line instanceof HTMLElement)) return;
    // The list is positioned, so a line's offsetTop is measured from the list's top.
    const top = line.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - line.offsetHeight) {
      box.scrollTop = Math.max(0, top - box.clientHeight / 3);
    }
  }, [current, follow]);
  return (
    <section aria-labelledby="library-transcript-heading" className="flex flex-col gap-2">
      <h3 id="library-transcript-heading" className="text-sm font-semibold text-fg">
        Transcript
      </h3>
      <ol
        ref={list}
        className="relative flex max-h-[28rem] flex-col gap-0.5 overflow-y-auto rounded-lg border border-ink-700 p-1"
      >
        {cues.map((cue, i) => (
          <li key={`${cue.start}-${cue.end}-${cue.text}`}>
            <button
              type="button"
              aria-current={i === current ? 'true' : undefined}
              onClick={() => onSeek(cue.start)}
              className={cn(
                'flex w-full items-baseline gap-3 rounded-md px-2 py-1.5 text-left text-sm hover:bg-ink-800 focus-visible:outline-2 focus-visible:outline-term-cyan',
                i === current ? 'bg-ink-800 text-fg' : 'text-muted',
              )}
            >
              <span className="shrink-0 font-mono text-xs text-term-cyan">{clock(cue.start)}</span>
              <span className="break-words">{cue.text}</span>
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
