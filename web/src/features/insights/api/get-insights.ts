import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Report } from '@/lib/api-types/insights';
import type { Range } from '../lib/period';

/** `GET /api/admin/insights?from=&to=` (admins): the owner's numbers for a range of days. */
export function getInsights(range: Range, signal?: AbortSignal): Promise<Report> {
  const q = new URLSearchParams({ from: range.from, to: range.to });
  return api.get<Report>(`/api/admin/insights?${q}`, signal);
}

export function getInsightsQueryOptions(range: Range) {
  return queryOptions({
    queryKey: ['insights', range.from, range.to] as const,
    queryFn: ({ signal }) => getInsights(range, signal),
  });
}

export function useInsights(range: Range) {
  return useQuery({ ...getInsightsQueryOptions(range), placeholderData: (previous) => previous });
}
