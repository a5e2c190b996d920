import {
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '@/lib/api';
import type {
  AcceptInput,
  Moderation,
  MuteInput,
  Reply,
  ReplyEnvelope,
  ReplyInput,
  ReportInput,
  ReportList,
  ThreadDetail,
  ThreadEnvelope,
  ThreadInput,
  ThreadList,
  ThreadPatch,
} from '@/lib/api-types/forum';
import type { Input as DocumentInput } from '@/lib/api-types/kb';
import type { DirectoryList } from '@/lib/api-types/web';

/**
 * The community's requests (docs/api.md, "Community"). Every query lives under `['community']`,
 * which the members area's live updates refetch on a `community` notice.
 */
export const communityKeys = {
  all: ['community'] as const,
  lists: ['community', 'threads'] as const,
  list: (filters: ListFilters) => ['community', 'threads', filters] as const,
  thread: (id: string) => ['community', 'thread', id] as const,
  reports: ['community', 'reports'] as const,
  names: ['community', 'names'] as const,
};

export interface ListFilters {
  category: string;
  q: string;
  unanswered: boolean;
}

/** `GET /api/community/threads`: one page of the list, or a search's best matches. */
export function getThreads(
  filters: ListFilters,
  cursor: string,
  signal?: AbortSignal,
): Promise<ThreadList> {
  const params = new URLSearchParams();
  if (filters.category) params.set('category', filters.category);
  if (filters.q.trim()) params.set('q', filters.q.trim());
  if (filters.unanswered) params.set('unanswered', '1');
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return api.get<ThreadList>(`/api/community/threads${query ? `?${query}` : ''}`, signal);
}

export function useThreads(filters: ListFilters) {
  return useInfiniteQuery({
    queryKey: communityKeys.list(filters),
    queryFn: ({ pageParam, signal }) => getThreads(filters, pageParam, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
  });
}

/** `GET /api/community/threads/{id}`: the thread with its replies. */
export function getThread(id: string, signal?: AbortSignal): Promise<ThreadDetail> {
  return api
    .get<ThreadEnvelope>(`/api/community/threads/${encodeURIComponent(id)}`, signal)
    .then((r) => r.thread as ThreadDetail);
}

export function threadQueryOptions(id: string) {
  return queryOptions({
    queryKey: communityKeys.thread(id),
    queryFn: ({ signal }) => getThread(id, signal),
    retry: false,
  });
}

export function useThread(id: string) {
  return useQuery(threadQueryOptions(id));
}

/** The names the mention picker offers: the member directory's (members only; none otherwise). */
export function useMentionNames(enabled: boolean) {
  return useQuery({
    queryKey: communityKeys.names,
    queryFn: async ({ signal }) =>
      (await api.get<DirectoryList>('/api/members/directory', signal)).members.map(
        (m) => m.full_name,
      ),
    enabled,
    staleTime: 60_000,
  });
}

/** A mutation that refetches the community's lists and threads once it succeeds. */
function useCommunityMutation<A, R>(fn: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => client.invalidateQueries({ queryKey: communityKeys.all }),
  });
}

const threadPath = (id: string) => `/api/community/threads/${encodeURIComponent(id)}`;
const replyPath = (id: string) => `/api/community/replies/${encodeURIComponent(id)}`;

export function useCreateThread() {
  return useCommunityMutation(async (input: ThreadInput) =>
    api.post<ThreadEnvelope>('/api/community/threads', input).then((r) => r.thread as ThreadDetail),
  );
}

export function useUpdateThread() {
  return useCommunityMutation(async ({ id, patch }: { id: string; patch: ThreadPatch }) =>
    api.patch<ThreadEnvelope>(threadPath(id), patch),
  );
}

export function useDeleteThread() {
  return useCommunityMutation((id: string) => api.delete<void>(threadPath(id)));
}

export function useAddReply() {
  return useCommunityMutation(
    async ({ threadId, input }: { threadId: string; input: ReplyInput }) =>
      (await api.post<ReplyEnvelope>(`${threadPath(threadId)}/replies`, input)).reply as Reply,
  );
}

export function useUpdateReply() {
  return useCommunityMutation(({ id, input }: { id: string; input: ReplyInput }) =>
    api.patch<ReplyEnvelope>(replyPath(id), input),
  );
}

export function useDeleteReply() {
  return useCommunityMutation((id: string) => api.delete<void>(replyPath(id)));
}

export function useReact() {
  return useCommunityMutation(
    ({ kind, id, on }: { kind: 'thread' | 'reply'; id: string; on: boolean }) => {
      const path = `${kind === 'thread' ? threadPath(id) : replyPath(id)}/reaction`;
      return on ? api.put<unknown>(path) : api.delete<unknown>(path);
    },
  );
}

export function useAccept() {
  return useCommunityMutation(({ id, input }: { id: string; input: AcceptInput }) =>
    api.put<ThreadEnvelope>(`${threadPath(id)}/accepted`, input),
  );
}

export function useMute() {
  return useCommunityMutation(({ id, input }: { id: string; input: MuteInput }) =>
    api.put<MuteInput>(`${threadPath(id)}/mute`, input),
  );
}

export function useReport() {
  return useCommunityMutation((input: ReportInput) =>
    api.post<void>('/api/community/reports', input),
  );
}

export function useModerate() {
  return useCommunityMutation(
    ({ kind, id, input }: { kind: 'thread' | 'reply'; id: string; input: Moderation }) =>
      api.put<unknown>(
        `/api/admin/community/${kind === 'thread' ? 'threads' : 'replies'}/${encodeURIComponent(id)}`,
        input,
      ),
  );
}

/** `GET /api/admin/community/reports`: the open reports (admins). */
export function useReports() {
  return useQuery({
    queryKey: communityKeys.reports,
    queryFn: ({ signal }) => api.get<ReportList>('/api/admin/community/reports', signal),
  });
}

export function useResolveReport() {
  return useCommunityMutation((id: string) =>
    api.post<void>(`/api/admin/community/reports/${encodeURIComponent(id)}/resolve`),
  );
}

/** `POST /api/admin/documents` (admins): an answered thread saved into the knowledge base. */
export function useCreateDocument() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: DocumentInput) => api.post<unknown>('/api/admin/documents', input),
    // The knowledge base's admin list (the members feature's) reads it again when opened.
    onSuccess: () => client.invalidateQueries({ queryKey: ['members', 'documents'] }),
  });
}
