import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query';
import { refetchSessions } from './cache';

/** `DELETE /api/admin/sessions/{id}` (admins). */
export function deleteLiveSession(sessionId: string): Promise<undefined> {
  return api.delete<undefined>(`/api/admin/sessions/${encodeURIComponent(sessionId)}`);
}

export function useDeleteLiveSession({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof deleteLiveSession>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: deleteLiveSession,
    onSuccess: async (...args) => {
      const refetched = refetchSessions(client);
      await onSuccess?.(...args);
      await refetched;
    },
  });
}
