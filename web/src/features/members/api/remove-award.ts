import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query';
import { refetchAwards } from './cache';

/** `DELETE /api/admin/awards/{id}` (admins): declines a suggestion or withdraws an award. */
export function removeAward(awardId: string): Promise<undefined> {
  return api.delete<undefined>(`/api/admin/awards/${encodeURIComponent(awardId)}`);
}

export function useRemoveAward({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof removeAward>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: removeAward,
    onSuccess: async (...args) => {
      const refetched = refetchAwards(client);
      await onSuccess?.(...args);
      await refetched;
    },
  });
}
