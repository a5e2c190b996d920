import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Award, AwardInput } from '@/lib/api-types/levels';
import type { AwardReply } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { refetchAwards } from './cache';

/** `POST /api/admin/awards` (admins): a contribution, mentoring or workshop with a note; it counts at once. */
export async function giveAward(data: AwardInput): Promise<Award> {
  return (await api.post<AwardReply>('/api/admin/awards', data)).award;
}

export function useGiveAward({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof giveAward>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: giveAward,
    onSuccess: async (...args) => {
      const refetched = refetchAwards(client);
      await onSuccess?.(...args);
      await refetched;
    },
  });
}
