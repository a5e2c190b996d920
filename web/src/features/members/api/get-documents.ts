import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { DocumentList as KnowledgeDocumentList } from '@/lib/api-types/kb';
import type { QueryConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `GET /api/admin/documents` (admins): one page of documents, newest first; `limit` 1 to 100. */
export function getDocuments(
  { limit, offset }: { limit: number; offset: number },
  signal?: AbortSignal,
): Promise<KnowledgeDocumentList> {
  return api.get<KnowledgeDocumentList>(
    `/api/admin/documents?limit=${limit}&offset=${offset}`,
    signal,
  );
}

export function getDocumentsQueryOptions(limit: number, offset: number) {
  return queryOptions({
    queryKey: membersKeys.documentsPage(limit, offset),
    queryFn: ({ signal }) => getDocuments({ limit, offset }, signal),
    // Turning the page keeps the old page on screen until the new one arrives.
    placeholderData: keepPreviousData,
  });
}

export function useDocuments({
  limit,
  offset,
  queryConfig,
}: {
  limit: number;
  offset: number;
  queryConfig?: QueryConfig<typeof getDocumentsQueryOptions>;
}) {
  return useQuery({ ...getDocumentsQueryOptions(limit, offset), ...queryConfig });
}
