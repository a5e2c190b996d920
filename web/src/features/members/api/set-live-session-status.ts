import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { SessionView as LiveSession } from '@/lib/api-types/community';
import type { SessionReply } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { refetchSessions } from './cache';

/** The states a live session may be in (the server's `SessionStatuses`). */
export type SessionStatus = 'scheduled' | 'live' | 'completed' | 'cancelled';

/** `PUT /api/admin/sessions/{id}/status` (admins), e.g. to cancel a session. */
export async function setLiveSessionStatus({
  sessionId,
  status,
}: {
  sessionId: string;
  status: SessionStatus;
}): Promise<LiveSession> {
  return (
    await api.put<SessionReply>(`/api/admin/sessions/${encodeURIComponent(sessionId)}/status`, {
      status,
    })
  ).session;
}

export function useSetLiveSessionStatus({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof setLiveSessionStatus>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: setLiveSessionStatus,
    onSuccess: async (...args) => {
      const refetched = refetchSessions(client);
      await onSuccess?.(...args);
      await refetched;
    },
  });
}
