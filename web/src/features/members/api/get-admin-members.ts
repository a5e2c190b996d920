import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Member as AdminMember } from '@/lib/api-types/billing';
import type { AdminMemberList } from '@/lib/api-types/web';
import type { QueryConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `GET /api/admin/members` (admins): everyone who has or had a membership, oldest first. */
export async function getAdminMembers(signal?: AbortSignal): Promise<AdminMember[]> {
  return (await api.get<AdminMemberList>('/api/admin/members', signal)).members;
}

export function getAdminMembersQueryOptions() {
  return queryOptions({
    queryKey: membersKeys.adminMembers,
    queryFn: ({ signal }) => getAdminMembers(signal),
  });
}

export function useAdminMembers({
  queryConfig,
}: {
  queryConfig?: QueryConfig<typeof getAdminMembersQueryOptions>;
} = {}) {
  return useQuery({ ...getAdminMembersQueryOptions(), ...queryConfig });
}
