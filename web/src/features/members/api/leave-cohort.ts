import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { CohortList } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { refetchCohorts } from './cache';
import { membersKeys } from './keys';

/** `POST /api/cohorts/{id}/leave`. */
export function leaveCohort(cohortId: string): Promise<undefined> {
  return api.post<undefined>(`/api/cohorts/${encodeURIComponent(cohortId)}/leave`);
}

export function useLeaveCohort({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof leaveCohort>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: leaveCohort,
    onSuccess: async (...args) => {
      const cohortId = args[1];
      // The member's own cohort card goes at once, before the refetch confirms it.
      client.setQueryData<CohortList>(membersKeys.cohorts, (prev) =>
        prev
          ? { ...prev, my_cohort_id: prev.my_cohort_id === cohortId ? null : prev.my_cohort_id }
          : prev,
      );
      const refetched = refetchCohorts(client);
      await onSuccess?.(...args);
      await refetched;
    },
  });
}
