import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { SessionView as LiveSession } from '@/lib/api-types/community';
import type {
  SessionList as LiveSessionList,
  SessionReply as LiveSessionReply,
} from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `PUT /api/sessions/{id}/rsvp`: going or not (subscribers and admins, until the session starts). */
export async function setRSVP({
  sessionId,
  going,
}: {
  sessionId: string;
  going: boolean;
}): Promise<LiveSession> {
  return (
    await api.put<LiveSessionReply>(`/api/sessions/${encodeURIComponent(sessionId)}/rsvp`, {
      going,
    })
  ).session;
}

export function useSetRSVP({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof setRSVP>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: setRSVP,
    onSuccess: (...args) => {
      const saved = args[0];
      // The answer carries the new count: show it at once, before the live update's refetch.
      client.setQueryData<LiveSessionList>(membersKeys.sessions, (list) =>
        list
          ? { ...list, sessions: list.sessions.map((s) => (s.id === saved.id ? saved : s)) }
          : list,
      );
      return onSuccess?.(...args);
    },
  });
}
