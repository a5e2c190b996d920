import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query';
import { refetchMembership } from './cache';

/** `DELETE /api/admin/members/{id}/complimentary` (admins): ends a complimentary membership now. */
export async function removeComplimentary(userId: string): Promise<void> {
  await api.delete<undefined>(`/api/admin/members/${encodeURIComponent(userId)}/complimentary`);
}

export function useRemoveComplimentary({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof removeComplimentary>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: removeComplimentary,
    onSuccess: async (...args) => {
      const refetched = refetchMembership(client);
      await onSuccess?.(...args);
      await refetched;
    },
  });
}
