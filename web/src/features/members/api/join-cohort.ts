import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Cohort } from '@/lib/api-types/community';
import type { CohortBody } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { refetchCohorts } from './cache';

/** `POST /api/cohorts/{id}/join`. */
export async function joinCohort(cohortId: string): Promise<Cohort> {
  return (await api.post<CohortBody>(`/api/cohorts/${encodeURIComponent(cohortId)}/join`)).cohort;
}

export function useJoinCohort({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof joinCohort>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, onError, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: joinCohort,
    onSuccess: async (...args) => {
      const refetched = refetchCohorts(client);
      await onSuccess?.(...args);
      await refetched;
    },
    // A refused join (the cohort filled up meanwhile) shows the list as it is now.
    onError: (...args) => {
      void refetchCohorts(client);
      return onError?.(...args);
    },
  });
}
