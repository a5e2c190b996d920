import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Cohort, CohortInput } from '@/lib/api-types/community';
import type { CohortBody } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { refetchCohorts } from './cache';

/** `POST /api/cohorts`: creates a cohort with the member as its first member. */
export async function createCohort(data: CohortInput): Promise<Cohort> {
  return (await api.post<CohortBody>('/api/cohorts', data)).cohort;
}

export function useCreateCohort({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof createCohort>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: createCohort,
    onSuccess: async (...args) => {
      const refetched = refetchCohorts(client);
      await onSuccess?.(...args);
      await refetched;
    },
  });
}
