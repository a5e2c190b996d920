import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Profile } from '@/lib/api-types/community';
import type { ProfileBody } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { avatarSaved } from './cache';

/** `POST /api/profile/avatar` (multipart): the server re-encodes the picture. */
export async function uploadAvatar(file: File): Promise<Profile> {
  const form = new FormData();
  form.append('avatar', file);
  return (await api.post<ProfileBody>('/api/profile/avatar', form)).profile;
}

export function useUploadAvatar({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof uploadAvatar>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: uploadAvatar,
    onSuccess: (...args) => {
      avatarSaved(client, args[0]);
      return onSuccess?.(...args);
    },
  });
}
