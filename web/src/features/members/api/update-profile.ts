import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Profile, ProfileUpdate } from '@/lib/api-types/community';
import type { ProfileBody } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { profileSaved } from './cache';

/** `PUT /api/profile`: saves the member-editable fields. */
export async function updateProfile(data: ProfileUpdate): Promise<Profile> {
  return (await api.put<ProfileBody>('/api/profile', data)).profile;
}

export function useUpdateProfile({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof updateProfile>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: updateProfile,
    onSuccess: (...args) => {
      profileSaved(client, args[0]);
      return onSuccess?.(...args);
    },
  });
}
