/** The owner's group training endpoints (docs/api.md, "Group trainings"); admin only on the server. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query';
import { bookingKeys } from './keys';
import type {
  AttendeeList,
  EventCancelled,
  EventInput,
  EventList,
  EventMessage,
  EventMove,
  EventPatch,
  EventReply,
  MessageSent,
} from './types';

/** `GET /api/admin/booking/events`: upcoming and recent dates, cancelled ones included. */
export function getAdminEvents(signal?: AbortSignal): Promise<EventList> {
  return api.get<EventList>('/api/admin/booking/events', signal);
}

export function useAdminEvents() {
  return useQuery(
    queryOptions({
      queryKey: bookingKeys.adminEvents,
      queryFn: ({ signal }) => getAdminEvents(signal),
      staleTime: 15_000,
    }),
  );
}

/** `GET /api/admin/booking/events/{id}/attendees`. */
export function useAttendees(id: string, enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: bookingKeys.attendees(id),
      queryFn: ({ signal }) =>
        api.get<AttendeeList>(
          `/api/admin/booking/events/${encodeURIComponent(id)}/attendees`,
          signal,
        ),
      enabled,
    }),
  );
}

/** Dates, seats and the one-to-one slots they block all change together. */
function useRefresh() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: bookingKeys.adminEvents }),
      client.invalidateQueries({ queryKey: bookingKeys.eventsAll }),
      client.invalidateQueries({ queryKey: bookingKeys.admin }),
    ]);
}

/** `POST /api/admin/booking/events`: schedules a date. */
export function useScheduleEvent({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<(input: EventInput) => Promise<EventReply>>;
} = {}) {
  const refresh = useRefresh();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: (input: EventInput) => api.post<EventReply>('/api/admin/booking/events', input),
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      await refresh();
    },
  });
}

/** `POST /api/admin/booking/events/{id}/cancel`: cancels the date and every seat, refunding them. */
export function useCancelEvent({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<(id: string) => Promise<EventCancelled>>;
} = {}) {
  const refresh = useRefresh();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: (id: string) =>
      api.post<EventCancelled>(`/api/admin/booking/events/${encodeURIComponent(id)}/cancel`),
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      await refresh();
    },
  });
}

/** `PATCH /api/admin/booking/events/{id}`: changes a date's seats, never below those taken. */
export function useSetEventSeats({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<(input: { id: string } & EventPatch) => Promise<EventReply>>;
} = {}) {
  const refresh = useRefresh();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: ({ id, ...patch }: { id: string } & EventPatch) =>
      api.patch<EventReply>(`/api/admin/booking/events/${encodeURIComponent(id)}`, patch),
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      await refresh();
    },
  });
}

/** `POST /api/admin/booking/events/{id}/move`: a new start, every seat with it, each attendee told. */
export function useMoveEvent({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<(input: { id: string } & EventMove) => Promise<EventReply>>;
} = {}) {
  const refresh = useRefresh();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: ({ id, ...move }: { id: string } & EventMove) =>
      api.post<EventReply>(`/api/admin/booking/events/${encodeURIComponent(id)}/move`, move),
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      await refresh();
    },
  });
}

/** `POST /api/admin/booking/events/{id}/message`: mails every confirmed or requested attendee. */
export function useMessageAttendees({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<(input: { id: string } & EventMessage) => Promise<MessageSent>>;
} = {}) {
  return useMutation({
    ...mutationConfig,
    mutationFn: ({ id, ...message }: { id: string } & EventMessage) =>
      api.post<MessageSent>(`/api/admin/booking/events/${encodeURIComponent(id)}/message`, message),
  });
}
