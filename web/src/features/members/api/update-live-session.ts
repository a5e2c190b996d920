import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query';
import { refetchSessions } from './cache';
import type { LiveSession, LiveSessionReply, SessionInput } from './types';

/** `PUT /api/admin/sessions/{id}` (admins): replaces the session. */
export async function updateLiveSession({
  sessionId,
  data,
}: {
  sessionId: string;
  data: SessionInput;
}): Promise<LiveSession> {
  return (
    await api.put<LiveSessionReply>(`/api/admin/sessions/${encodeURIComponent(sessionId)}`, data)
  ).session;
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
