import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Award } from '@/lib/api-types/levels';
import type { AwardReply } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { refetchAwards } from './cache';

/** `POST /api/admin/awards/{id}/accept` (admins): a member's suggestion starts to count. */
export async function acceptAward(awardId: string): Promise<Award> {
  return (await api.post<AwardReply>(`/api/admin/awards/${encodeURIComponent(awardId)}/accept`))
    .award;
}

export function useAcceptAward({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof acceptAward>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: acceptAward,
    onSuccess: async (...args) => {
      const refetched = refetchAwards(client);
      await onSuccess?.(...args);
      await refetched;
    },
  });
}
