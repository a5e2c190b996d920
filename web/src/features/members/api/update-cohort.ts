import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Cohort, CohortInput } from '@/lib/api-types/community';
import type { CohortBody } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { refetchCohorts } from './cache';

/** `PUT /api/cohorts/{id}` (the creator): replaces name, description, icon and links. */
export async function updateCohort({
  cohortId,
  data,
}: {
  cohortId: string;
  data: CohortInput;
}): Promise<Cohort> {
  return (await api.put<CohortBody>(`/api/cohorts/${encodeURIComponent(cohortId)}`, data)).cohort;
}

export function useUpdateCohort({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof updateCohort>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: updateCohort,
    onSuccess: async (...args) => {
      const refetched = refetchCohorts(client);
      await onSuccess?.(...args);
      await refetched;
    },
  });
}
