import { useMutation, useQueryClient } from '@tanstack/react-query';
import { seedKnowledgeBase } from '@/lib/kb';
import type { MutationConfig } from '@/lib/query';
import { refetchDocuments } from './cache';

/** Seeds the knowledge base (lib/kb.ts, shared with the agent page) and refreshes the documents list. */
export function useSeedKnowledgeBase({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof seedKnowledgeBase>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: seedKnowledgeBase,
    onSuccess: async (...args) => {
      const refetched = refetchDocuments(client);
      await onSuccess?.(...args);
      await refetched;
    },
  });
}
