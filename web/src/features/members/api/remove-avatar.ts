import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Profile } from '@/lib/api-types/community';
import type { ProfileBody } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { avatarSaved } from './cache';

/** `DELETE /api/profile/avatar`. */
export async function removeAvatar(): Promise<Profile> {
  return (await api.delete<ProfileBody>('/api/profile/avatar')).profile;
}

export function useRemoveAvatar({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof removeAvatar>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: removeAvatar,
    onSuccess: (...args) => {
      avatarSaved(client, args[0]);
      return onSuccess?.(...args);
    },
  });
}
