import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Groups as KnowledgeGaps } from '@/lib/api-types/gaps';
import { membersKeys } from './keys';

/** How many groups of knowledge gaps one page holds. */
export const KNOWLEDGE_GAPS_PAGE_SIZE = 50;

/** The address of one page of knowledge gaps: the first, or the one after `cursor`. */
export function knowledgeGapsPath(cursor = ''): string {
  const after = cursor === '' ? '' : `&cursor=${encodeURIComponent(cursor)}`;
  return `/api/admin/knowledge-gaps?limit=${KNOWLEDGE_GAPS_PAGE_SIZE}${after}`;
}

/** `GET /api/admin/knowledge-gaps` (admins): one page of the weakly answered questions of the last 90 days, grouped. */
export function getKnowledgeGaps(cursor: string, signal?: AbortSignal): Promise<KnowledgeGaps> {
  return api.get<KnowledgeGaps>(knowledgeGapsPath(cursor), signal);
}

export function getKnowledgeGapsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: membersKeys.knowledgeGaps,
    queryFn: ({ pageParam, signal }) => getKnowledgeGaps(pageParam, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.next || undefined,
  });
}

/** The pages of knowledge gaps loaded so far; `fetchNextPage` loads one more. */
export function useKnowledgeGaps() {
  return useInfiniteQuery(getKnowledgeGapsQueryOptions());
}
