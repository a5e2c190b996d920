import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { QueryConfig } from '@/lib/query';
import { membersKeys } from './keys';
import type { Profile, ProfileBody } from './types';

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
