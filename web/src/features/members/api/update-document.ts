import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Input as DocumentInput, Document as KnowledgeDocument } from '@/lib/api-types/kb';
import type { DocumentBody } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { refetchDocuments } from './cache';

/** `PUT /api/admin/documents/{id}` (admins): new title and content; metadata left out is kept. */
export async function updateDocument({
  documentId,
  data,
}: {
  documentId: string;
  data: DocumentInput;
}): Promise<KnowledgeDocument> {
  return (
    await api.put<DocumentBody>(`/api/admin/documents/${encodeURIComponent(documentId)}`, data)
  ).document;
}

export function useUpdateDocument({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof updateDocument>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: updateDocument,
    onSuccess: async (...args) => {
      const refetched = refetchDocuments(client);
      await onSuccess?.(...args);
      await refetched;
    },
  });
}
