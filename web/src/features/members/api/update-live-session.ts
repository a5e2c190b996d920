import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { SessionView as LiveSession, SessionInput } from '@/lib/api-types/community';
import type { SessionReply } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { refetchSessions } from './cache';

/** `PUT /api/admin/sessions/{id}` (admins): replaces the session. */
export async function updateLiveSession({
  sessionId,
  data,
}: {
  sessionId: string;
  data: SessionInput;
}): Promise<LiveSession> {
  return (await api.put<SessionReply>(`/api/admin/sessions/${encodeURIComponent(sessionId)}`, data))
    .session;
}

export function useUpdateLiveSession({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof updateLiveSession>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: updateLiveSession,
    onSuccess: async (...args) => {
      const refetched = refetchSessions(client);
      await onSuccess?.(...args);
      await refetched;
    },
  });
}
