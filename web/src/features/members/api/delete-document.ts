import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query';
import { refetchDocuments } from './cache';

/** `DELETE /api/admin/documents/{id}` (admins): the document and its chunks. */
export function deleteDocument(documentId: string): Promise<undefined> {
  return api.delete<undefined>(`/api/admin/documents/${encodeURIComponent(documentId)}`);
}

export function useDeleteDocument({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof deleteDocument>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: deleteDocument,
    onSuccess: async (...args) => {
      const refetched = refetchDocuments(client);
      await onSuccess?.(...args);
      await refetched;
    },
  });
}
