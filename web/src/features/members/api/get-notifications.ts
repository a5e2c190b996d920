import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Settings } from '@/lib/api-types/notify';
import type { QueryConfig } from '@/lib/query';
import { notifyKeys } from './notify-keys';

/** `GET /api/members/me/notifications`: which mail the member gets, and their time zone. */
export function getNotifications(signal?: AbortSignal): Promise<Settings> {
  return api.get<Settings>('/api/members/me/notifications', signal);
}

export function getNotificationsQueryOptions() {
  return queryOptions({
    queryKey: notifyKeys.settings,
    queryFn: ({ signal }) => getNotifications(signal),
  });
}

export function useNotifications({
  queryConfig,
}: {
  queryConfig?: QueryConfig<typeof getNotificationsQueryOptions>;
} = {}) {
  return useQuery({ ...getNotificationsQueryOptions(), ...queryConfig });
}
