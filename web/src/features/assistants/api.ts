import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { AssistantCounts, AssistantList } from '@/lib/api-types/oauth';

/** Query keys of the connected assistants. */
export const assistantKeys = {
  mine: ['assistants', 'mine'] as const,
  admin: ['assistants', 'admin'] as const,
};

/** `GET /api/members/me/assistants`: the clients the member has allowed. */
export function useMyAssistants() {
  return useQuery({
    queryKey: assistantKeys.mine,
    queryFn: ({ signal }) => api.get<AssistantList>('/api/members/me/assistants', signal),
  });
}

/** `DELETE /api/members/me/assistants/{client_id}`: ends every grant to that client at once. */
export function useRevokeAssistant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (clientId: string) =>
      api.delete<void>(`/api/members/me/assistants/${encodeURIComponent(clientId)}`),
    onSettled: () => client.invalidateQueries({ queryKey: assistantKeys.mine }),
  });
}

/** `GET /api/admin/assistants`: how many members have each client connected. */
export function useAssistantCounts() {
  return useQuery({
    queryKey: assistantKeys.admin,
    queryFn: ({ signal }) => api.get<AssistantCounts>('/api/admin/assistants', signal),
  });
}
