import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Member as AdminMember } from '@/lib/api-types/billing';
import type { AdminMemberReply, CompRequest } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { refetchMembership } from './cache';

export interface SetComplimentaryInput {
  userId: string;
  /** The last day (YYYY-MM-DD, UTC), or null for no end. */
  until: string | null;
}

/** `PUT /api/admin/members/{id}/complimentary` (admins): access without payment. */
export async function setComplimentary({
  userId,
  until,
}: SetComplimentaryInput): Promise<AdminMember> {
  const body: CompRequest = { until };
  const path = `/api/admin/members/${encodeURIComponent(userId)}/complimentary`;
  return (await api.put<AdminMemberReply>(path, body)).member;
}

export function useSetComplimentary({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof setComplimentary>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: setComplimentary,
    onSuccess: async (...args) => {
      const refetched = refetchMembership(client);
      await onSuccess?.(...args);
      await refetched;
    },
  });
}
