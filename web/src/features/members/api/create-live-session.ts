import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { SessionView as LiveSession, SessionInput } from '@/lib/api-types/community';
import type { SessionReply } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { refetchSessions } from './cache';

/** `POST /api/admin/sessions` (admins). */
export async function createLiveSession(data: SessionInput): Promise<LiveSession> {
  return (await api.post<SessionReply>('/api/admin/sessions', data)).session;
}

export function useCreateLiveSession({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof createLiveSession>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: createLiveSession,
    onSuccess: async (...args) => {
      const refetched = refetchSessions(client);
      await onSuccess?.(...args);
      await refetched;
    },
  });
}
