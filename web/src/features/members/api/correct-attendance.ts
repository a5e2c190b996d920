import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { AttendanceInput, AttendanceSheet } from '@/lib/api-types/community';
import type { MutationConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `PUT /api/admin/sessions/{id}/attendance` (admins): marks a member present or absent. */
export function correctAttendance({
  sessionId,
  data,
}: {
  sessionId: string;
  data: AttendanceInput;
}): Promise<AttendanceSheet> {
  return api.put<AttendanceSheet>(
    `/api/admin/sessions/${encodeURIComponent(sessionId)}/attendance`,
    data,
  );
}

export function useCorrectAttendance({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof correctAttendance>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: correctAttendance,
    onSuccess: (...args) => {
      client.setQueryData(membersKeys.attendance(args[1].sessionId), args[0]);
      return onSuccess?.(...args);
    },
  });
}
