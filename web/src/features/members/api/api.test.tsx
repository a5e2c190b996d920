import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Cohort, CohortInput, Profile, SessionInput } from '@/lib/api-types/community';
import type { CohortList } from '@/lib/api-types/web';
import { session } from '@/lib/session';
import { apiError, deferred, json, mockApi, resetAuthState } from '@/test/mock-api';
import { useCreateCalendarFeed } from './create-calendar-feed';
import { createCohort } from './create-cohort';
import { createDocument } from './create-document';
import { createLiveSession } from './create-live-session';
import { deleteCalendarFeed } from './delete-calendar-feed';
import { deleteCohort, useDeleteCohort } from './delete-cohort';
import { deleteDocument } from './delete-document';
import { deleteLiveSession } from './delete-live-session';
import { getCalendarFeed } from './get-calendar-feed';
import { getCohorts, useCohorts } from './get-cohorts';
import { getDocuments } from './get-documents';
import { getLiveSessions } from './get-live-sessions';
import { getMembersOverview } from './get-members-overview';
import { getProfile } from './get-profile';
import { getWaitlist } from './get-waitlist';
import { joinCohort, useJoinCohort } from './join-cohort';
import { membersKeys } from './keys';
import { leaveCohort } from './leave-cohort';
import { removeAvatar } from './remove-avatar';
import { resendConfirmation } from './resend-confirmation';
import { setLiveSessionStatus } from './set-live-session-status';
import { updateCohort } from './update-cohort';
import { updateDocument } from './update-document';
import { updateLiveSession } from './update-live-session';
import { updateProfile, useUpdateProfile } from './update-profile';
import { uploadAvatar } from './upload-avatar';

afterEach(() => {
  resetAuthState();
});

const profile: Profile = {
  id: 'u1',
  email: 'ada@example.com',
  full_name: 'Ada Lovelace',
  avatar_url: null,
  bio: '',
  phone: '',
  location: '',
  company: '',
  job_title: '',
  name_unverified: false,
  in_directory: false,
  created_at: '2026-11-23T10:00:00.000Z',
  updated_at: '2026-11-23T10:00:00.000Z',
};

function cohort(id: string): Cohort {
  return {
    id,
    name: `Cohort ${id}`,
    description: '',
    icon: 'users',
    github_url: null,
    homepage_url: null,
    created_by: 'u1',
    max_members: 5,
    member_count: 1,
    is_member: true,
    is_creator: true,
    is_full: false,
    members: [],
    created_at: '2026-11-23T10:00:00.000Z',
    updated_at: '2026-11-23T10:00:00.000Z',
  };
}

const cohortInput: CohortInput = {
  name: 'Builders',
  description: '',
  icon: 'rocket',
  github_url: '',
  homepage_url: '',
};

const sessionInput: SessionInput = {
  title: 'Memory',
  description: '',
  tags: [],
  session_date: '2026-12-03',
  session_time: '17:00',
  duration: '2 hours',
  timezone: 'UTC',
  status: 'scheduled',
  max_attendees: null,
  zoom_meeting_id: '',
  zoom_password: '',
  zoom_join_url: '',
  meeting_link: '',
};

const noContent = () => new Response(null, { status: 204 });

describe('members-area fetchers', () => {
  it.each([
    ['getMembersOverview', () => getMembersOverview(), 'GET /api/members/overview', undefined],
    ['resendConfirmation', () => resendConfirmation(), 'POST /api/auth/confirm/resend', undefined],
    ['getProfile', () => getProfile(), 'GET /api/profile', undefined],
    ['updateProfile', () => updateProfile(profile), 'PUT /api/profile', profile],
    ['removeAvatar', () => removeAvatar(), 'DELETE /api/profile/avatar', undefined],
    ['getCohorts', () => getCohorts(), 'GET /api/cohorts', undefined],
    ['createCohort', () => createCohort(cohortInput), 'POST /api/cohorts', cohortInput],
    [
      'updateCohort',
      () => updateCohort({ cohortId: 'c/1', data: cohortInput }),
      'PUT /api/cohorts/c%2F1',
      cohortInput,
    ],
    ['deleteCohort', () => deleteCohort('c1'), 'DELETE /api/cohorts/c1', undefined],
    ['joinCohort', () => joinCohort('c1'), 'POST /api/cohorts/c1/join', undefined],
    ['leaveCohort', () => leaveCohort('c1'), 'POST /api/cohorts/c1/leave', undefined],
    ['getLiveSessions', () => getLiveSessions(), 'GET /api/sessions', undefined],
    [
      'createLiveSession',
      () => createLiveSession(sessionInput),
      'POST /api/admin/sessions',
      sessionInput,
    ],
    [
      'updateLiveSession',
      () => updateLiveSession({ sessionId: 's1', data: sessionInput }),
      'PUT /api/admin/sessions/s1',
      sessionInput,
    ],
    [
      'setLiveSessionStatus',
      () => setLiveSessionStatus({ sessionId: 's1', status: 'cancelled' }),
      'PUT /api/admin/sessions/s1/status',
      { status: 'cancelled' },
    ],
    [
      'deleteLiveSession',
      () => deleteLiveSession('s1'),
      'DELETE /api/admin/sessions/s1',
      undefined,
    ],
    ['getCalendarFeed', () => getCalendarFeed(), 'GET /api/calendar/feed', undefined],
    ['deleteCalendarFeed', () => deleteCalendarFeed(), 'DELETE /api/calendar/feed', undefined],
    ['getWaitlist', () => getWaitlist(), 'GET /api/admin/waitlist', undefined],
    [
      'getDocuments',
      () => getDocuments({ limit: 10, offset: 20 }),
      'GET /api/admin/documents?limit=10&offset=20',
      undefined,
    ],
    [
      'createDocument',
      () => createDocument({ title: 'T', content: 'C', category: '', tags: ['faq'] }),
      'POST /api/admin/documents',
      { title: 'T', content: 'C', category: '', tags: ['faq'] },
    ],
    [
      'updateDocument',
      () => updateDocument({ documentId: 'd/1', data: { title: 'T', content: 'C' } }),
      'PUT /api/admin/documents/d%2F1',
      { title: 'T', content: 'C' },
    ],
    ['deleteDocument', () => deleteDocument('d/1'), 'DELETE /api/admin/documents/d%2F1', undefined],
  ] as const)('%s sends %s', async (_name, call, route, body) => {
    const api = mockApi({
      [route]: () =>
        json(200, {
          profile,
          cohort: cohort('c1'),
          session: { id: 's1' },
          entries: [],
          document: { id: 'd1' },
          documents: [],
        }),
    });
    await call();
    const [method = '', path = ''] = route.split(' ');
    expect(api.to(method, path)).toEqual([{ method, path, body }]);
  });

  it('unwraps the object the answer wraps', async () => {
    const entry = { id: 'w1', full_name: 'Ada', email: 'ada@example.com', created_at: 'x' };
    mockApi({
      'GET /api/profile': () => json(200, { profile }),
      'POST /api/cohorts/c1/join': () => json(200, { cohort: cohort('c1') }),
      'GET /api/admin/waitlist': () => json(200, { entries: [entry] }),
    });
    await expect(getProfile()).resolves.toEqual(profile);
    await expect(joinCohort('c1')).resolves.toEqual(cohort('c1'));
    await expect(getWaitlist()).resolves.toEqual([entry]);
  });

  it('uploads the avatar as multipart form data', async () => {
    const api = mockApi({ 'POST /api/profile/avatar': () => json(200, { profile }) });
    await uploadAvatar(new File(['png'], 'me.png', { type: 'image/png' }));
    const body = api.fetchMock.mock.calls[0]?.[1]?.body;
    expect(body).toBeInstanceOf(FormData);
    expect(body instanceof FormData && body.get('avatar')).toBeInstanceOf(File);
  });
});

function withClient(client: QueryClient) {
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
}

function newClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

describe('members-area mutation hooks', () => {
  it('deleting a cohort drops it from the list at once and stays pending until the refetch', async () => {
    const refetch = deferred<Response>();
    let gets = 0;
    const api = mockApi({
      'GET /api/cohorts': () => {
        gets += 1;
        return gets === 1
          ? json(200, { cohorts: [cohort('c1'), cohort('c2')], my_cohort_id: 'c1' })
          : refetch.promise;
      },
      'DELETE /api/cohorts/c1': noContent,
    });
    const client = newClient();
    const onSuccess = vi.fn();
    const { result } = renderHook(
      () => ({
        list: useCohorts(),
        remove: useDeleteCohort({ mutationConfig: { onSuccess } }),
      }),
      { wrapper: withClient(client) },
    );
    await waitFor(() => expect(result.current.list.data?.cohorts).toHaveLength(2));

    act(() => result.current.remove.mutate('c1'));
    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
    expect(client.getQueryData<CohortList>(membersKeys.cohorts)).toEqual({
      cohorts: [cohort('c2')],
      my_cohort_id: null,
    });
    expect(result.current.remove.isPending).toBe(true);
    expect(api.to('GET', '/api/cohorts')).toHaveLength(2);

    refetch.resolve(json(200, { cohorts: [cohort('c2')], my_cohort_id: null }));
    await waitFor(() => expect(result.current.remove.isSuccess).toBe(true));
  });

  it('a refused join shows the error and refetches the list', async () => {
    const api = mockApi({
      'GET /api/cohorts': () => json(200, { cohorts: [cohort('c1')], my_cohort_id: null }),
      'POST /api/cohorts/c1/join': () => apiError(409, 'cohort_full', 'This cohort is full.'),
    });
    const onError = vi.fn();
    const { result } = renderHook(
      () => ({ list: useCohorts(), join: useJoinCohort({ mutationConfig: { onError } }) }),
      { wrapper: withClient(newClient()) },
    );
    await waitFor(() => expect(result.current.list.isSuccess).toBe(true));
    act(() => result.current.join.mutate('c1'));
    await waitFor(() => expect(result.current.join.isError).toBe(true));
    expect(onError.mock.calls[0]?.[0]).toHaveProperty('message', 'This cohort is full.');
    await waitFor(() => expect(api.to('GET', '/api/cohorts')).toHaveLength(2));
  });

  it('a saved profile goes into the cache and the user is asked for again', async () => {
    mockApi({ 'PUT /api/profile': () => json(200, { profile: { ...profile, bio: 'Engines.' } }) });
    const refresh = vi.spyOn(session, 'refresh').mockResolvedValue({ status: 'signed-out' });
    const client = newClient();
    const { result } = renderHook(() => useUpdateProfile(), { wrapper: withClient(client) });
    act(() => result.current.mutate({ ...profile, bio: 'Engines.' }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(client.getQueryData<Profile>(membersKeys.profile)?.bio).toBe('Engines.');
    expect(refresh).toHaveBeenCalledOnce();
  });

  it('a new calendar feed marks the feed as existing, with its date', async () => {
    mockApi({
      'POST /api/calendar/feed': () =>
        json(201, { url: 'http://x/calendar/t.ics', created_at: '2026-11-23T10:00:00Z' }),
    });
    const client = newClient();
    const onSuccess = vi.fn();
    const { result } = renderHook(() => useCreateCalendarFeed({ mutationConfig: { onSuccess } }), {
      wrapper: withClient(client),
    });
    act(() => result.current.mutate());
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(client.getQueryData(membersKeys.feed)).toEqual({
      exists: true,
      created_at: '2026-11-23T10:00:00Z',
    });
    expect(onSuccess.mock.calls[0]?.[0]).toHaveProperty('url', 'http://x/calendar/t.ics');
  });
});
