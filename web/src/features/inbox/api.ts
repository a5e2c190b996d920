import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest } from '@/lib/api';
import type {
  Channels,
  List,
  Preferences,
  PushKey,
  ReadInput,
  ReadResult,
} from '@/lib/api-types/inbox';
import { NOTIFICATIONS_QUERY_ROOT } from '@/lib/events';

/** Query keys of the notification centre: under the root the live updates invalidate. */
export const inboxKeys = {
  all: NOTIFICATIONS_QUERY_ROOT,
  list: [...NOTIFICATIONS_QUERY_ROOT, 'list'] as const,
  preferences: [...NOTIFICATIONS_QUERY_ROOT, 'preferences'] as const,
};

/** `GET /api/notifications`: the newest page and the unread count. */
export function getNotifications(signal?: AbortSignal): Promise<List> {
  return api.get<List>('/api/notifications', signal);
}

export function notificationsQueryOptions() {
  return queryOptions({
    queryKey: inboxKeys.list,
    queryFn: ({ signal }) => getNotifications(signal),
  });
}

export function useNotificationList() {
  return useQuery(notificationsQueryOptions());
}

/** `POST /api/notifications/read`: some ids, or all. */
export function markRead(input: ReadInput): Promise<ReadResult> {
  return api.post<ReadResult>('/api/notifications/read', input);
}

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: markRead,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: inboxKeys.list });
    },
  });
}

/** `GET /api/members/me/notifications`: the mail settings and the channel of each kind. */
export function getPreferences(signal?: AbortSignal): Promise<Preferences> {
  return api.get<Preferences>('/api/members/me/notifications', signal);
}

export function usePreferences() {
  return useQuery(
    queryOptions({
      queryKey: inboxKeys.preferences,
      queryFn: ({ signal }) => getPreferences(signal),
    }),
  );
}

/** `PUT /api/members/me/notifications` with channels only: the mail settings keep their values. */
export function saveChannels(channels: Channels): Promise<Preferences> {
  return api.put<Preferences>('/api/members/me/notifications', { channels });
}

export function useSaveChannels() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveChannels,
    onSuccess: (saved) => {
      client.setQueryData(inboxKeys.preferences, saved);
    },
  });
}

/** `GET /api/push/key`: the site's VAPID public key. */
export function getPushKey(): Promise<PushKey> {
  return api.get<PushKey>('/api/push/key');
}

/** The parts of a browser push subscription the server keeps. */
export interface PushSubscriptionBody {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** `POST /api/push/subscriptions`. */
export function addPushSubscription(body: PushSubscriptionBody): Promise<void> {
  return api.post<void>('/api/push/subscriptions', body);
}

/** `DELETE /api/push/subscriptions`. */
export function removePushSubscription(endpoint: string): Promise<void> {
  return apiRequest<void>('/api/push/subscriptions', { method: 'DELETE', body: { endpoint } });
}
