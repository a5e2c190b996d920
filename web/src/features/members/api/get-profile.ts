import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Profile } from '@/lib/api-types/community';
import type { ProfileBody } from '@/lib/api-types/web';
import type { QueryConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `GET /api/profile`: the signed-in member's profile. */
export async function getProfile(signal?: AbortSignal): Promise<Profile> {
  return (await api.get<ProfileBody>('/api/profile', signal)).profile;
}

export function getProfileQueryOptions() {
  return queryOptions({
    queryKey: membersKeys.profile,
    queryFn: ({ signal }) => getProfile(signal),
  });
}

export function useProfile({
  queryConfig,
}: {
  queryConfig?: QueryConfig<typeof getProfileQueryOptions>;
} = {}) {
  return useQuery({ ...getProfileQueryOptions(), ...queryConfig });
}
