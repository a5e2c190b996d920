/**
 * The Admin tab's knowledge base: seeding it from the site's content files, the questions it could
 * not answer (knowledge gaps), and the documents it holds (list, add, edit, delete). The site's AI
 * answers (console search, agent page) read them.
 */

import {
  BookOpen,
  ChevronLeft,
  ChevronRight,
  DatabaseZap,
  FilePlus2,
  HelpCircle,
  Pencil,
  Plus,
  Trash2,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EditConfirmDialog, EditForm, useEditConfirm } from '@/components/ui/edit-confirm-dialog';
import { ApiError, errorMessage } from '@/lib/api';
import type {
  Input as DocumentInput,
  Document as KnowledgeDocument,
  SeedBreakdown,
  SeedResult,
} from '@/lib/api-types/kb';
import { plural } from '@/lib/plural';
import { toast } from '@/lib/toast';
import { useCreateDocument } from './api/create-document';
import { useDeleteDocument } from './api/delete-document';
import { useDocuments } from './api/get-documents';
import { useKnowledgeGaps } from './api/get-knowledge-gaps';
import { useSeedKnowledgeBase } from './api/seed-knowledge-base';
import { useUpdateDocument } from './api/update-document';
import { formatLongDate, parseTags } from './logic';
import { EmptyState, LoadError, LoadingBlock, TextAreaField, TextField } from './parts';
import { useErrorToast } from './SessionsPanel';

/** Documents per page of the list; the server allows up to 100. */
export const DOCUMENTS_PAGE_SIZE = 10;

/** The spec's message for a missing title or content, the same words the server uses. */
const REQUIRED = 'Please fill in all required fields';

/** Where seeding says a seeded document's edit ends, shown wherever one can be changed. */
const SEEDED_NOTE =
  'Seeded documents are rebuilt from the site’s content files: the next seeding (the Seed knowledge base button, or the server starting after the content changed) puts back their content-file version, so an edit to one is temporary and a deleted one comes back.';

/** The parts of the site seeding counts, in the order the result lists them. */
const SEED_PARTS: ReadonlyArray<[keyof SeedBreakdown, string]> = [
  ['about', 'About'],
  ['services', 'Services'],
  ['projects', 'Projects'],
  ['stack', 'Stack'],
  ['contact', 'Contact'],
  ['community', 'Community'],
];

/** The knowledge-base part of the Admin tab: seeding, then the documents. */
export function KnowledgeAdmin() {
  return (
    <section aria-labelledby="kb-heading" className="flex flex-col gap-4">
      <div>
        <h2 id="kb-heading" className="flex items-center gap-2 text-xl font-semibold text-fg">
          <BookOpen size={18} aria-hidden="true" className="text-term-amber" />
          Knowledge base
        </h2>
        <p className="mt-1 text-sm text-muted">
          What the site’s AI answers from: console search and the agent page.
        </p>
      </div>
      <SeedPanel />
      <DocumentManager />
    </section>
  );
}

/** The seeding failure's text: the server's own message, or the spec's fallback. */
function seedFailure(error: unknown): string {
  return error instanceof ApiError && error.message
    ? error.message
    : 'Failed to seed knowledge base';
}

function SeedPanel() {
  const [result, setResult] = useState<SeedResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const seed = useSeedKnowledgeBase({
    mutationConfig: {
      onSuccess: (res) => {
        setResult(res);
        setFailure(null);
        toast.success(
          'Knowledge base seeded',
          `Seeded ${plural(res.count, 'document')} to knowledge base`,
        );
      },
      onError: (error) => {
        setFailure(seedFailure(error));
        toast.error('Seeding failed', seedFailure(error));
      },
    },
  });

  return (
    <section aria-labelledby="kb-seed-heading">
      <Card>
        <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <h3 id="kb-seed-heading" className="font-semibold text-fg">
              Seed from the site’s content
            </h3>
            <p className="mt-1 text-sm text-muted">
              Builds documents from the content files (about, services, projects, stack, contact)
              and the tribe’s facts (community). Seeding again adds what is new, rewrites what
              changed and removes what is gone. Documents added by hand below are never touched.
            </p>
          </div>
          <Button
            className="shrink-0"
            onClick={() => seed.mutate(undefined)}
            disabled={seed.isPending}
            aria-busy={seed.isPending}
          >
            <DatabaseZap size={16} aria-hidden="true" />
            {seed.isPending ? 'Seeding…' : 'Seed knowledge base'}
          </Button>
        </div>
        <div aria-live="polite">
          {result ? <SeedSummary result={result} /> : null}
          {failure ? (
            <p className="mt-4 text-sm text-term-red">
              <span className="font-semibold">Seeding failed:</span> {failure}
            </p>
          ) : null}
        </div>
      </Card>
    </section>
  );
}

function SeedSummary({ result }: { result: SeedResult }) {
  return (
    <div className="mt-4 border-t border-ink-700 pt-4">
      <p className="font-mono text-sm text-term-green">{result.message}</p>
      <dl
        aria-label="Seeded documents per part of the site"
        className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6"
      >
        {SEED_PARTS.map(([key, label]) => (
          <div key={key} className="rounded-md border border-ink-700 bg-ink-900 px-3 py-2">
            <dt className="font-mono text-xs text-dim">{label}</dt>
            <dd className="text-lg font-semibold text-fg">{result.breakdown[key]}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** "Nov 23, 2026, 10:00 AM" in the viewer's zone. */
function formatUpdated(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** The start of a document's text on one paragraph, for the list. */
function preview(content: string): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  return flat.length > 280 ? `${flat.slice(0, 280).trimEnd()}…` : flat;
}

function DocumentManager() {
  const [page, setPage] = useState(0);
  const query = useDocuments({ limit: DOCUMENTS_PAGE_SIZE, offset: page * DOCUMENTS_PAGE_SIZE });
  useErrorToast(query.error, 'Error loading documents');
  const dialog = useEditConfirm<KnowledgeDocument>();
  // A new document started from a knowledge gap opens with the question as its title.
  const [prefill, setPrefill] = useState('');
  const addDocument = () => {
    setPrefill('');
    dialog.add();
  };
  const answer = (question: string) => {
    setPrefill(question);
    dialog.add();
  };

  const total = query.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / DOCUMENTS_PAGE_SIZE));
  // A delete (here or by another admin) can leave this page past the end: show the last one.
  useEffect(() => {
    if (query.data && !query.isPlaceholderData && page > pages - 1) setPage(pages - 1);
  }, [query.data, query.isPlaceholderData, page, pages]);

  const create = useCreateDocument({
    mutationConfig: {
      onSuccess: () => {
        toast.success('Document added successfully');
        // The list is newest first: the new document is on the first page.
        setPage(0);
      },
    },
  });
  const update = useUpdateDocument({
    mutationConfig: { onSuccess: () => toast.success('Document updated successfully') },
  });
  const remove = useDeleteDocument({
    mutationConfig: {
      onSuccess: () => toast.success('Document deleted successfully'),
      onError: (error) => toast.error('Error', errorMessage(error)),
    },
  });

  const documents = query.data?.documents ?? [];
  const first = page * DOCUMENTS_PAGE_SIZE + 1;
  const last = page * DOCUMENTS_PAGE_SIZE + documents.length;

  return (
    <>
      <KnowledgeGaps onAnswer={answer} />
      <section aria-labelledby="kb-docs-heading" className="flex flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <h3 id="kb-docs-heading" className="font-semibold text-fg">
              Documents
            </h3>
            <p className="mt-1 text-sm text-muted">
              {query.data ? `${plural(total, 'document')}, newest first. ` : 'Newest first. '}
              Those marked Seeded come from the content files and are rebuilt by the next seeding,
              so an edit to one is temporary.
            </p>
          </div>
          <Button onClick={addDocument} aria-haspopup="dialog">
            <Plus size={16} aria-hidden="true" />
            Add document
          </Button>
        </div>

        {query.isPending ? (
          <LoadingBlock label="Loading documents…" rows={2} />
        ) : query.isError && !query.data ? (
          <LoadError
            message="The documents could not be loaded."
            onRetry={() => void query.refetch()}
          />
        ) : documents.length === 0 ? (
          <EmptyState title="No documents yet">
            Seed the knowledge base from the site’s content, or add a document.
          </EmptyState>
        ) : (
          <>
            <ul
              className="flex flex-col gap-3"
              aria-busy={query.isPlaceholderData}
              aria-label="Knowledge-base documents"
            >
              {documents.map((d) => (
                <li key={d.id}>
                  <DocumentCard
                    document={d}
                    onEdit={() => dialog.edit(d)}
                    onDelete={() => dialog.askDelete(d)}
                  />
                </li>
              ))}
            </ul>
            {pages > 1 ? (
              <nav
                aria-label="Document pages"
                className="flex flex-wrap items-center justify-between gap-3"
              >
                <p className="font-mono text-xs text-dim" aria-live="polite">
                  {first}–{last} of {total}
                </p>
                <div className="flex gap-2">
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={page === 0 || query.isPlaceholderData}
                    onClick={() => setPage((p) => Math.max(0, p - 1))}
                  >
                    <ChevronLeft size={14} aria-hidden="true" />
                    Newer
                  </Button>
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={page >= pages - 1 || query.isPlaceholderData}
                    onClick={() => setPage((p) => p + 1)}
                  >
                    Older
                    <ChevronRight size={14} aria-hidden="true" />
                  </Button>
                </div>
              </nav>
            ) : null}
          </>
        )}

        <EditConfirmDialog<KnowledgeDocument, DocumentInput>
          control={dialog}
          edit={(document, save) => ({
            windowTitle: document ? '~ $ kb edit' : '~ $ kb add',
            title: document ? 'Edit document' : 'Add document',
            description: document
              ? 'Change the title and the content; the rest of the metadata stays as it is.'
              : 'Title and content are required. It is searchable as soon as it is saved.',
            form: (
              <DocumentForm
                document={document}
                initialTitle={prefill}
                onCancel={dialog.close}
                onSubmit={save}
              />
            ),
          })}
          onSave={(document, input) =>
            document
              ? update.mutateAsync({ documentId: document.id, data: input })
              : create.mutateAsync(input)
          }
          confirm={(document) => ({
            title: `Delete ${document.metadata.title}?`,
            description: document.seeded
              ? 'The AI stops answering from it at once. It is a seeded document, so the next seeding adds it back.'
              : 'The AI stops answering from it at once. This cannot be undone.',
            confirmLabel: 'Delete document',
          })}
          onConfirm={(document) => remove.mutateAsync(document.id)}
        />
      </section>
    </>
  );
}

/**
 * The questions asked in the console, the AI chat and over MCP that the knowledge base answered
 * weakly in the last 90 days, grouped by similar wording; each can start a document.
 */
function KnowledgeGaps({ onAnswer }: { onAnswer: (question: string) => void }) {
  const query = useKnowledgeGaps();
  const pages = query.data?.pages ?? [];
  const groups = pages.flatMap((p) => p.groups);
  const total = pages[0]?.total ?? 0;
  return (
    <section aria-labelledby="kb-gaps-heading" className="flex flex-col gap-4">
      <div>
        <h3 id="kb-gaps-heading" className="flex items-center gap-2 font-semibold text-fg">
          <HelpCircle size={16} aria-hidden="true" className="text-term-amber" />
          Knowledge gaps
        </h3>
        <p className="mt-1 text-sm text-muted">
          Questions the knowledge base could not answer well (fewer than half of their words in the
          best passage), from the console's search and ask, the AI chat and MCP search, over the
          last 90 days. Only the question and its time are kept, never who asked; e-mail addresses,
          phone and card numbers are taken out.
        </p>
      </div>
      {query.isPending ? (
        <LoadingBlock label="Loading knowledge gaps…" rows={1} />
      ) : query.isError && query.data === undefined ? (
        <LoadError
          message="The knowledge gaps could not be loaded."
          onRetry={() => void query.refetch()}
        />
      ) : groups.length === 0 ? (
        <EmptyState title="No knowledge gaps">
          Every question of the last 90 days found a good answer.
        </EmptyState>
      ) : (
        <>
          <ul className="flex flex-col gap-2" aria-label="Knowledge gaps">
            {groups.map((g) => (
              <li
                key={g.id}
                className="flex flex-col gap-2 rounded-lg border border-ink-700 bg-ink-850/40 p-3 sm:flex-row sm:items-start sm:justify-between"
              >
                <div className="min-w-0">
                  <p className="font-medium break-words text-fg">{g.question}</p>
                  <p className="mt-1 font-mono text-xs text-dim">
                    asked {g.count === 1 ? 'once' : `${g.count} times`}, last{' '}
                    <time dateTime={g.last_asked}>{formatUpdated(g.last_asked)}</time>
                  </p>
                  {g.others.length > 0 ? (
                    <p className="mt-1 text-xs break-words text-muted">
                      Also asked as: {g.others.map((o) => `“${o}”`).join(', ')}
                    </p>
                  ) : null}
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  className="shrink-0 self-start"
                  onClick={() => onAnswer(g.question)}
                  aria-haspopup="dialog"
                  aria-label={`Write a document answering “${g.question}”`}
                >
                  <FilePlus2 size={14} aria-hidden="true" />
                  Write a document
                </Button>
              </li>
            ))}
          </ul>
          <div className="flex flex-wrap items-center gap-3">
            <p className="font-mono text-xs text-dim" aria-live="polite">
              {groups.length} of {total} {total === 1 ? 'group' : 'groups'} shown
            </p>
            {query.hasNextPage ? (
              <Button
                variant="outline"
                size="sm"
                onClick={() => void query.fetchNextPage()}
                disabled={query.isFetchingNextPage}
              >
                {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </Button>
            ) : null}
            {query.isFetchNextPageError ? (
              <p role="alert" className="text-xs text-term-red">
                The next page could not be loaded. Try again.
              </p>
            ) : null}
          </div>
        </>
      )}
    </section>
  );
}

function DocumentCard({
  document: d,
  onEdit,
  onDelete,
}: {
  document: KnowledgeDocument;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const md = d.metadata;
  return (
    <article
      aria-labelledby={`kb-doc-${d.id}`}
      className="rounded-lg border border-ink-700 bg-ink-850/80 p-4"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h4 id={`kb-doc-${d.id}`} className="min-w-0 font-semibold break-words text-fg">
          {md.title}
        </h4>
        {d.seeded ? (
          <Badge tone="amber" title="Rebuilt from the content files by the next seeding">
            Seeded
          </Badge>
        ) : null}
      </div>
      <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 font-mono text-xs text-dim">
        <Meta label="category" value={md.category} />
        <Meta label="type" value={md.type} />
        <Meta label="source" value={md.source} />
        <div>
          <dt className="inline">updated </dt>
          <dd className="inline text-muted">
            <time dateTime={d.updated_at}>{formatUpdated(d.updated_at)}</time>
          </dd>
        </div>
      </dl>
      {md.tags.length > 0 ? (
        <ul aria-label="Tags" className="mt-2 flex flex-wrap gap-1.5">
          {md.tags.map((t) => (
            <li key={t}>
              <Badge>{t}</Badge>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="mt-3 line-clamp-3 text-sm break-words text-muted">{preview(d.content)}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={onEdit}
          aria-haspopup="dialog"
          aria-label={`Edit ${md.title}`}
        >
          <Pencil size={14} aria-hidden="true" />
          Edit
        </Button>
        <Button
          variant="ghost"
          size="sm"
          className="hover:text-term-red"
          onClick={onDelete}
          aria-haspopup="dialog"
          aria-label={`Delete ${md.title}`}
        >
          <Trash2 size={14} aria-hidden="true" />
          Delete
        </Button>
      </div>
    </article>
  );
}

function Meta({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0 wrap-anywhere">
      <dt className="inline">{label} </dt>
      <dd className="inline text-muted">{value}</dd>
    </div>
  );
}

type DocumentField = 'title' | 'content' | 'category' | 'tags';
const DOCUMENT_FIELDS: readonly string[] = ['title', 'content', 'category', 'tags'];

/** Adds a document (`document` null) or edits one: title and content, with its metadata shown. */
function DocumentForm({
  document,
  initialTitle = '',
  onCancel,
  onSubmit,
}: {
  document: KnowledgeDocument | null;
  /** A new document's title to start from (a knowledge gap's question). */
  initialTitle?: string;
  onCancel: () => void;
  onSubmit: (input: DocumentInput) => Promise<void>;
}) {
  const [title, setTitle] = useState(document?.metadata.title ?? initialTitle);
  const [content, setContent] = useState(document?.content ?? '');
  const [category, setCategory] = useState('');
  const [tags, setTags] = useState('');
  const [errors, setErrors] = useState<Partial<Record<DocumentField, string>>>({});
  const formRef = useRef<HTMLFormElement>(null);

  const change = (field: DocumentField, set: (v: string) => void) => (value: string) => {
    set(value);
    setErrors((prev) => (prev[field] ? { ...prev, [field]: undefined } : prev));
  };

  const focus = (field: DocumentField) =>
    formRef.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();

  const send = async (input: DocumentInput) => {
    try {
      await onSubmit(input);
    } catch (error) {
      if (error instanceof ApiError && error.field && DOCUMENT_FIELDS.includes(error.field)) {
        const field = error.field as DocumentField;
        setErrors({ [field]: error.message });
        focus(field);
      } else {
        toast.error('Error', errorMessage(error));
      }
    }
  };

  const submit = () => {
    const missing: Partial<Record<DocumentField, string>> = {};
    if (title.trim() === '') missing.title = REQUIRED;
    if (content.trim() === '') missing.content = REQUIRED;
    if (missing.title || missing.content) {
      setErrors(missing);
      focus(missing.title ? 'title' : 'content');
      return;
    }
    // An edit sends only title and content, so the rest of the metadata keeps its value.
    const input: DocumentInput = document
      ? { title, content }
      : { title, content, category, tags: parseTags(tags) };
    return send(input);
  };

  return (
    <EditForm
      ref={formRef}
      onSubmit={submit}
      onCancel={onCancel}
      submitLabel={document ? 'Save document' : 'Add document'}
    >
      {document ? <DocumentMetadata document={document} /> : null}
      <TextField
        name="title"
        label="Title"
        value={title}
        onChange={change('title', setTitle)}
        error={errors.title}
        maxLength={200}
        required
      />
      {document ? null : (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            name="category"
            label="Category"
            value={category}
            onChange={change('category', setCategory)}
            error={errors.category}
            placeholder="manual"
            hint="Left empty, it is manual."
            maxLength={60}
          />
          <TextField
            name="tags"
            label="Tags (comma separated)"
            value={tags}
            onChange={change('tags', setTags)}
            error={errors.tags}
            placeholder="pricing, faq"
          />
        </div>
      )}
      <TextAreaField
        name="content"
        label="Content"
        rows={10}
        value={content}
        onChange={change('content', setContent)}
        error={errors.content}
        required
      />
    </EditForm>
  );
}

/** An edited document's metadata, read only, and what seeding will do to it. */
function DocumentMetadata({ document: d }: { document: KnowledgeDocument }) {
  const md = d.metadata;
  return (
    <div className="flex flex-col gap-3">
      {d.seeded ? (
        <p className="rounded-md border border-term-amber/40 bg-term-amber/5 px-3 py-2 text-sm text-term-amber">
          {SEEDED_NOTE}
        </p>
      ) : null}
      <dl className="grid gap-x-4 gap-y-1 rounded-md border border-ink-700 px-3 py-2 font-mono text-xs text-dim sm:grid-cols-2">
        <Meta label="category" value={md.category} />
        <Meta label="type" value={md.type} />
        <Meta label="source" value={md.source} />
        <Meta label="tags" value={md.tags.length > 0 ? md.tags.join(', ') : 'none'} />
        <Meta label="created" value={formatLongDate(d.created_at)} />
        <Meta label="updated" value={formatUpdated(d.updated_at)} />
      </dl>
    </div>
  );
}
