import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Progress } from '@/lib/api-types/levels';
import type { MutationConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `PUT /api/members/me/progress/seen`: the member was congratulated for `level`. */
export function markLevelSeen(level: string): Promise<undefined> {
  return api.put<undefined>('/api/members/me/progress/seen', { level });
}

export function useMarkLevelSeen({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof markLevelSeen>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: markLevelSeen,
    onSuccess: (...args) => {
      client.setQueryData<Progress>(membersKeys.progress, (p) => {
        if (!p) return p;
        const { reached: _seen, ...rest } = p;
        return rest;
      });
      return onSuccess?.(...args);
    },
  });
}
