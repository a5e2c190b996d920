/** The owner's enterprise inquiries (docs/api.md, "Enterprise inquiries"); admin only on the server. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query';
import { bookingKeys } from './keys';
import type { InquiryList, InquiryPatch, InquiryReply } from './types';

/** `GET /api/admin/inquiries`: newest first. */
export function useInquiries() {
  return useQuery(
    queryOptions({
      queryKey: bookingKeys.inquiries,
      queryFn: ({ signal }) => api.get<InquiryList>('/api/admin/inquiries', signal),
      staleTime: 15_000,
    }),
  );
}

/** `PATCH /api/admin/inquiries`: a new status, a note, or both. */
export function useUpdateInquiry({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<(patch: InquiryPatch) => Promise<InquiryReply>>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: (patch: InquiryPatch) => api.patch<InquiryReply>('/api/admin/inquiries', patch),
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      await client.invalidateQueries({ queryKey: bookingKeys.inquiries });
    },
  });
}
