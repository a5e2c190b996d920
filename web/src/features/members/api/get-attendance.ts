import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { AttendanceSheet } from '@/lib/api-types/community';
import type { QueryConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `GET /api/admin/sessions/{id}/attendance` (admins): RSVP'd, joined and corrected. */
export function getAttendance(sessionId: string, signal?: AbortSignal): Promise<AttendanceSheet> {
  return api.get<AttendanceSheet>(
    `/api/admin/sessions/${encodeURIComponent(sessionId)}/attendance`,
    signal,
  );
}

export function getAttendanceQueryOptions(sessionId: string) {
  return queryOptions({
    queryKey: membersKeys.attendance(sessionId),
    queryFn: ({ signal }) => getAttendance(sessionId, signal),
  });
}

export function useAttendance(
  sessionId: string,
  {
    queryConfig,
  }: {
    queryConfig?: QueryConfig<typeof getAttendanceQueryOptions>;
  } = {},
) {
  return useQuery({ ...getAttendanceQueryOptions(sessionId), ...queryConfig });
}
