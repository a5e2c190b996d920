import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { CohortList } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { refetchCohorts } from './cache';
import { membersKeys } from './keys';

/** `DELETE /api/cohorts/{id}` (the creator): removes the cohort and its memberships. */
export function deleteCohort(cohortId: string): Promise<undefined> {
  return api.delete<undefined>(`/api/cohorts/${encodeURIComponent(cohortId)}`);
}

export function useDeleteCohort({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof deleteCohort>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: deleteCohort,
    onSuccess: async (...args) => {
      const cohortId = args[1];
      // Gone from the list at once, before the refetch confirms it.
      client.setQueryData<CohortList>(membersKeys.cohorts, (prev) =>
        prev
          ? {
              cohorts: prev.cohorts.filter((c) => c.id !== cohortId),
              my_cohort_id: prev.my_cohort_id === cohortId ? null : prev.my_cohort_id,
            }
          : prev,
      );
      const refetched = refetchCohorts(client);
      await onSuccess?.(...args);
      await refetched;
    },
  });
}
