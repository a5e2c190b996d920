import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { WaitlistEntries, WaitlistEntry } from '@/lib/api-types/web';
import type { QueryConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `GET /api/admin/waitlist` (admins): the wait list, newest first. */
export async function getWaitlist(signal?: AbortSignal): Promise<WaitlistEntry[]> {
  return (await api.get<WaitlistEntries>('/api/admin/waitlist', signal)).entries;
}

export function getWaitlistQueryOptions() {
  return queryOptions({
    queryKey: membersKeys.waitlist,
    queryFn: ({ signal }) => getWaitlist(signal),
  });
}

export function useWaitlist({
  queryConfig,
}: {
  queryConfig?: QueryConfig<typeof getWaitlistQueryOptions>;
} = {}) {
  return useQuery({ ...getWaitlistQueryOptions(), ...queryConfig });
}
