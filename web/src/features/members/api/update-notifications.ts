import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Settings, SettingsInput } from '@/lib/api-types/notify';
import type { MutationConfig } from '@/lib/query';
import { notifyKeys } from './notify-keys';

/** `PUT /api/members/me/notifications`: changes the fields given; the rest keep their values. */
export function updateNotifications(data: SettingsInput): Promise<Settings> {
  return api.put<Settings>('/api/members/me/notifications', data);
}

export function useUpdateNotifications({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof updateNotifications>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: updateNotifications,
    onSuccess: async (saved, ...args) => {
      client.setQueryData(notifyKeys.settings, saved);
      await onSuccess?.(saved, ...args);
    },
  });
}
