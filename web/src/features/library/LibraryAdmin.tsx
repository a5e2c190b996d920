import { Trash2, Upload } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormProblem } from '@/components/ui/form-problem';
import { CountedTextarea, TextField } from '@/components/ui/text-field';
import { ApiError, errorMessage } from '@/lib/api';
import type { ItemDetail, ItemInput } from '@/lib/api-types/library';
import { useNavigate } from '@/lib/router';
import { toast } from '@/lib/toast';
import {
  uploadFile,
  useAttachMedia,
  useCreateItem,
  useDeleteItem,
  usePutTranscript,
  useSessionChoices,
  useStats,
  useUpdateItem,
} from './api/library';
import {
  chaptersText,
  itemPath,
  KIND_LABELS,
  KINDS,
  LIBRARY_PATH,
  parseChapters,
  sizeLabel,
  timeLeft,
} from './logic';

const selectClass =
  'h-11 w-full min-w-0 rounded-md border border-ink-600 bg-ink-900 px-3 text-base text-fg focus-visible:outline-2 focus-visible:outline-term-cyan sm:text-sm';

interface Problem {
  field?: string | undefined;
  message: string;
}

function problemOf(error: unknown): Problem {
  return error instanceof ApiError
    ? { field: error.field, message: error.message }
    : { message: errorMessage(error) };
}

/** Splits "a, b ,c" into tags, dropping empties. */
export function parseTags(text: string): string[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

/** The admin's form for a new item: its metadata; the file and transcript come in its Manage panel. */
export function NewItem({ onDone }: { onDone: () => void }) {
  return <ItemForm onDone={onDone} />;
}

/** An item's metadata: a new one (POST), or the given one's changes (PATCH). */
function ItemForm({ item, onDone }: { item?: ItemDetail; onDone: () => void }) {
  const [kind, setKind] = useState(item?.kind ?? 'recording');
  const [title, setTitle] = useState(item?.title ?? '');
  const [description, setDescription] = useState(item?.description ?? '');
  const [tags, setTags] = useState(item?.tags.join(', ') ?? '');
  const [sessionId, setSessionId] = useState(item?.session_id ?? '');
  const [minLevel, setMinLevel] = useState(String(item?.min_level ?? 0));
  const [duration, setDuration] = useState(
    item && item.duration_s > 0 ? String(Math.round((item.duration_s / 60) * 100) / 100) : '',
  );
  const [url, setUrl] = useState(item?.url ?? '');
  const [body, setBody] = useState(item?.body ?? '');
  const [chapters, setChapters] = useState(item ? chaptersText(item.chapters) : '');
  const [publish, setPublish] = useState(true);
  const [problem, setProblem] = useState<Problem | null>(null);
  const create = useCreateItem();
  const update = useUpdateItem();
  const pending = create.isPending || update.isPending;
  const navigate = useNavigate();
  const kindId = useId();
  const levelId = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (pending) return;
    if (title.trim() === '') {
      setProblem({ field: 'title', message: 'Give the item a title.' });
      return;
    }
    const parsed = parseChapters(chapters);
    if (typeof parsed === 'string') {
      setProblem({ field: 'chapters', message: parsed });
      return;
    }
    const input: ItemInput = {
      kind,
      title: title.trim(),
      description,
      tags: parseTags(tags),
      min_level: Number(minLevel),
      chapters: parsed,
    };
    if (!item) input.published_at = publish ? new Date().toISOString() : null;
    if (sessionId.trim()) input.session_id = sessionId.trim();
    else if (item?.session_id) input.session_id = null;
    if (duration.trim()) input.duration_s = Math.round(Number(duration) * 60);
    if (kind === 'link' || url.trim() || item?.url) input.url = url.trim();
    if (kind === 'lesson') input.body = body;
    setProblem(null);
    const onError = (error: unknown) => setProblem(problemOf(error));
    if (item) {
      update.mutate(
        { id: item.id, patch: input },
        {
          onSuccess: (saved) => {
            void toast.success('Saved', saved.title);
            onDone();
          },
          onError,
        },
      );
      return;
    }
    create.mutate(input, {
      onSuccess: (created) => {
        void toast.success('Item created', created.title);
        onDone();
        navigate(itemPath(created.id));
      },
      onError,
    });
  };

  const fieldError = (name: string) => (problem?.field === name ? problem.message : undefined);

  return (
    <Card className="p-4">
      <form
        onSubmit={submit}
        noValidate
        aria-label="New library item"
        className="flex flex-col gap-4"
      >
        {problem ? <FormProblem message={problem.message} /> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="flex flex-col gap-1">
            <label htmlFor={kindId} className="text-sm font-medium text-fg">
              Kind
            </label>
            <select
              id={kindId}
              name="kind"
              value={kind}
              onChange={(e) => setKind(e.target.value)}
              className={selectClass}
            >
              {KINDS.map((k) => (
                <option key={k} value={k}>
                  {KIND_LABELS[k]}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={levelId} className="text-sm font-medium text-fg">
              Tribe Level needed
            </label>
            <select
              id={levelId}
              name="min_level"
              value={minLevel}
              onChange={(e) => setMinLevel(e.target.value)}
              className={selectClass}
            >
              <option value="0">None</option>
              {[1, 2, 3, 4, 5].map((n) => (
                <option key={n} value={String(n)}>
                  Level {n}
                </option>
              ))}
            </select>
          </div>
        </div>
        <TextField
          label="Title"
          name="title"
          value={title}
          onValueChange={setTitle}
          maxLength={200}
          required
          error={fieldError('title')}
        />
        <CountedTextarea
          label="Description"
          name="description"
          value={description}
          onValueChange={setDescription}
          max={5000}
          rows={3}
          error={fieldError('description')}
        />
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField
            label="Tags"
            name="tags"
            value={tags}
            onValueChange={setTags}
            hint="Separated by commas"
            error={fieldError('tags')}
          />
          <SessionPicker
            value={sessionId}
            onChange={setSessionId}
            error={fieldError('session_id')}
          />
          <TextField
            label="Duration (minutes)"
            name="duration_s"
            type="number"
            min={0}
            max={1440}
            inputMode="numeric"
            value={duration}
            onValueChange={setDuration}
            error={fieldError('duration_s')}
          />
        </div>
        {kind === 'link' || kind === 'recording' ? (
          <TextField
            label={kind === 'link' ? 'Address' : 'Hosted elsewhere (YouTube or Vimeo address)'}
            name="url"
            type="url"
            value={url}
            onValueChange={setUrl}
            required={kind === 'link'}
            error={fieldError('url')}
          />
        ) : null}
        {kind === 'lesson' ? (
          <CountedTextarea
            label="Lesson (Markdown)"
            name="body"
            value={body}
            onValueChange={setBody}
            max={100_000}
            rows={8}
            error={fieldError('body')}
          />
        ) : null}
        {kind === 'recording' || kind === 'link' ? (
          <CountedTextarea
            label="Chapters"
            name="chapters"
            value={chapters}
            onValueChange={setChapters}
            max={20_000}
            rows={4}
            hint="One a line: its start and title, as “12:30 Questions”."
            error={fieldError('chapters')}
          />
        ) : null}
        {item ? null : (
          <label className="flex min-h-11 items-center gap-2 text-sm text-muted">
            <input
              type="checkbox"
              checked={publish}
              onChange={(e) => setPublish(e.target.checked)}
              className="size-4 accent-term-green"
            />
            Publish now
          </label>
        )}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={pending}>
            {item
              ? update.isPending
                ? 'Saving…'
                : 'Save'
              : create.isPending
                ? 'Creating…'
                : 'Create item'}
          </Button>
          <Button variant="ghost" onClick={onDone}>
            Cancel
          </Button>
        </div>
      </form>
    </Card>
  );
}

/**
 * The live session an item belongs to, picked by its date and title (newest first): its card then
 * links the replay, and the library filters by it. Until the sessions load, the one set is kept.
 */
function SessionPicker({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (id: string) => void;
  error?: string;
}) {
  const sessions = useSessionChoices(true);
  const id = useId();
  const hintId = useId();
  const errorId = useId();
  const options = [...(sessions.data ?? [])].sort((a, b) => b.starts_at.localeCompare(a.starts_at));
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-fg">
        Session
      </label>
      <select
        id={id}
        name="session_id"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        aria-invalid={error ? true : undefined}
        className={selectClass}
      >
        <option value="">None</option>
        {value && !options.some((o) => o.id === value) ? (
          <option value={value}>{sessions.isPending ? 'Loading…' : 'A session not listed'}</option>
        ) : null}
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.session_date} · {o.title}
          </option>
        ))}
      </select>
      <p id={hintId} className="text-xs text-dim">
        The live session it records, if any
      </p>
      {error ? (
        <p id={errorId} className="text-xs text-term-red">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The admin's panel under an item: file, transcript, publishing, numbers, deletion. */
export function ManagePanel({ item }: { item: ItemDetail }) {
  const stats = useStats(item.id, true);
  const update = useUpdateItem();
  const remove = useDeleteItem();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const published = item.published_at !== null;

  const togglePublished = () => {
    update.mutate(
      { id: item.id, patch: { published_at: published ? null : new Date().toISOString() } },
      {
        onSuccess: () => void toast.success(published ? 'Unpublished' : 'Published', item.title),
        onError: (e) => void toast.error('Not changed', errorMessage(e)),
      },
    );
  };

  const destroy = () => {
    if (!window.confirm(`Delete “${item.title}”, its file, transcript and progress?`)) return;
    remove.mutate(item.id, {
      onSuccess: () => {
        void toast.success('Deleted', item.title);
        navigate(LIBRARY_PATH);
      },
      onError: (e) => void toast.error('Not deleted', errorMessage(e)),
    });
  };

  return (
    <section
      aria-labelledby="library-manage-heading"
      className="flex flex-col gap-4 rounded-lg border border-ink-700 p-4"
    >
      <h3 id="library-manage-heading" className="text-base font-semibold text-fg">
        Manage
      </h3>
      <p className="text-sm text-muted" aria-live="polite">
        {stats.data
          ? `${stats.data.started} started · ${stats.data.finished} finished`
          : stats.isError
            ? `The numbers could not be loaded: ${errorMessage(stats.error)}`
            : 'Loading the numbers…'}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="outline"
          onClick={() => setEditing((v) => !v)}
          aria-expanded={editing}
        >
          Edit details
        </Button>
        <Button size="sm" variant="outline" onClick={togglePublished} disabled={update.isPending}>
          {published ? 'Unpublish' : 'Publish now'}
        </Button>
        <Button size="sm" variant="ghost" onClick={destroy} disabled={remove.isPending}>
          <Trash2 size={16} aria-hidden="true" />
          Delete
        </Button>
      </div>
      {editing ? <ItemForm item={item} onDone={() => setEditing(false)} /> : null}
      <MediaUpload item={item} />
      <TranscriptForm item={item} />
    </section>
  );
}

interface Sending {
  sent: number;
  total: number;
  startedAt: number;
  now: number;
}

function MediaUpload({ item }: { item: ItemDetail }) {
  const [file, setFile] = useState<File | null>(null);
  const [sending, setSending] = useState<Sending | null>(null);
  const [problem, setProblem] = useState('');
  const abort = useRef<AbortController | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const attach = useAttachMedia();
  const fileId = useId();
  const progressId = useId();

  const start = async () => {
    if (!file || sending) return;
    const controller = new AbortController();
    abort.current = controller;
    const startedAt = Date.now();
    setProblem('');
    setSending({ sent: 0, total: file.size, startedAt, now: startedAt });
    try {
      const uploadId = await uploadFile(file, {
        signal: controller.signal,
        onProgress: (sent, total) => setSending({ sent, total, startedAt, now: Date.now() }),
      });
      await attach.mutateAsync({ id: item.id, uploadId });
      void toast.success('File attached', file.name);
      setFile(null);
      // The input would still name the file sent, as if it were waiting to go.
      if (input.current) input.current.value = '';
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError')
        setProblem('Upload cancelled.');
      else setProblem(`The upload failed: ${errorMessage(error)}`);
    } finally {
      abort.current = null;
      setSending(null);
    }
  };

  const pct = sending && sending.total > 0 ? Math.floor((sending.sent / sending.total) * 100) : 0;

  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={fileId} className="text-sm font-medium text-fg">
        {item.has_media ? 'Replace the file' : 'Upload a file'}
      </label>
      {item.has_media ? (
        <p className="text-xs text-dim">
          Now: {item.media_type} · {sizeLabel(item.media_size)}
        </p>
      ) : null}
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <input
          ref={input}
          id={fileId}
          type="file"
          accept="video/*,audio/*,application/pdf,application/zip,.pptx,.key"
          disabled={sending !== null}
          onChange={(e: ChangeEvent<HTMLInputElement>) => setFile(e.target.files?.[0] ?? null)}
          className="min-h-11 min-w-0 text-sm text-muted file:mr-3 file:rounded-md file:border file:border-ink-600 file:bg-ink-800 file:px-3 file:py-2 file:text-fg"
        />
        {sending ? (
          <Button size="sm" variant="ghost" onClick={() => abort.current?.abort()}>
            Cancel upload
          </Button>
        ) : (
          <Button size="sm" onClick={() => void start()} disabled={!file}>
            <Upload size={16} aria-hidden="true" />
            Upload
          </Button>
        )}
      </div>
      {sending ? (
        <div className="flex flex-col gap-1">
          <progress
            id={progressId}
            aria-label="Upload progress"
            max={100}
            value={pct}
            className="h-2 w-full accent-term-green"
          />
          <p className="text-xs text-dim" aria-live="polite">
            {pct} % · {sizeLabel(sending.sent)} of {sizeLabel(sending.total)}
            {(() => {
              const left = timeLeft(sending.sent, sending.total, sending.now - sending.startedAt);
              return left ? ` · ${left}` : '';
            })()}
          </p>
        </div>
      ) : null}
      {problem ? (
        <p role="alert" className="text-sm text-term-red">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

function TranscriptForm({ item }: { item: ItemDetail }) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState('');
  const put = usePutTranscript();
  const fileId = useId();

  const load = async (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0];
    if (f) setText(await f.text());
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (put.isPending) return;
    if (text.trim() === '') {
      setProblem('Paste a WebVTT or SRT transcript, or choose its file.');
      return;
    }
    setProblem('');
    put.mutate(
      { id: item.id, text },
      {
        onSuccess: (cues) => {
          void toast.success('Transcript saved', `${cues.length} lines`);
          setText('');
        },
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  return (
    <form onSubmit={submit} aria-label="Transcript" className="flex flex-col gap-2">
      {problem ? <FormProblem message={problem} /> : null}
      <CountedTextarea
        label={
          item.has_transcript
            ? 'Replace the transcript (WebVTT or SRT)'
            : 'Transcript (WebVTT or SRT)'
        }
        name="transcript"
        value={text}
        onValueChange={setText}
        max={8_000_000}
        rows={5}
      />
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <label htmlFor={fileId} className="text-sm text-muted">
          Or choose the file
        </label>
        <input
          id={fileId}
          type="file"
          accept=".vtt,.srt,text/vtt,text/plain"
          onChange={(e) => void load(e)}
          className="min-h-11 min-w-0 text-sm text-muted file:mr-3 file:rounded-md file:border file:border-ink-600 file:bg-ink-800 file:px-3 file:py-2 file:text-fg"
        />
        <Button type="submit" size="sm" disabled={put.isPending} className="sm:ml-auto">
          {put.isPending ? 'Saving…' : 'Save transcript'}
        </Button>
      </div>
    </form>
  );
}
