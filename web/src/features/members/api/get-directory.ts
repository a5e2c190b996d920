import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { DirectoryEntry } from '@/lib/api-types/community';
import type { DirectoryList } from '@/lib/api-types/web';
import type { QueryConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `GET /api/members/directory?q=`: members who opted in, matching every word of `q`. */
export async function getDirectory(q: string, signal?: AbortSignal): Promise<DirectoryEntry[]> {
  const query = q ? `?q=${encodeURIComponent(q)}` : '';
  return (await api.get<DirectoryList>(`/api/members/directory${query}`, signal)).members;
}

export function getDirectoryQueryOptions(q: string) {
  return queryOptions({
    queryKey: membersKeys.directorySearch(q),
    queryFn: ({ signal }) => getDirectory(q, signal),
    // While a new search loads, the last answer stays instead of a skeleton at every key.
    placeholderData: keepPreviousData,
  });
}

export function useDirectory({
  q,
  queryConfig,
}: {
  q: string;
  queryConfig?: QueryConfig<typeof getDirectoryQueryOptions>;
}) {
  return useQuery({ ...getDirectoryQueryOptions(q), ...queryConfig });
}
