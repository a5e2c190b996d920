import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Input as DocumentInput, Document as KnowledgeDocument } from '@/lib/api-types/kb';
import type { DocumentBody } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { refetchDocuments } from './cache';

/** `POST /api/admin/documents` (admins): category, type and source default to `manual`, `document`, `manual`. */
export async function createDocument(data: DocumentInput): Promise<KnowledgeDocument> {
  return (await api.post<DocumentBody>('/api/admin/documents', data)).document;
}

export function useCreateDocument({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof createDocument>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: createDocument,
    onSuccess: async (...args) => {
      const refetched = refetchDocuments(client);
      await onSuccess?.(...args);
      await refetched;
    },
  });
}
