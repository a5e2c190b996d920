import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Award, SuggestionInput } from '@/lib/api-types/levels';
import type { AwardReply } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `POST /api/members/me/awards`: the member suggests an award for themselves; an admin accepts it. */
export async function suggestAward(data: SuggestionInput): Promise<Award> {
  return (await api.post<AwardReply>('/api/members/me/awards', data)).award;
}

export function useSuggestAward({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof suggestAward>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: suggestAward,
    onSuccess: async (...args) => {
      const refetched = client.invalidateQueries({ queryKey: membersKeys.myAwards });
      await onSuccess?.(...args);
      await refetched;
    },
  });
}
