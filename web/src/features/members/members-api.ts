/** The members-area endpoints of docs/api.md ("Members area", wait list), typed. */
import { api } from '@/lib/api';
import type { Subscription } from '@/lib/session';

/** `GET /api/tribe/status`. */
export interface TribeStatus {
  capacity: number;
  active_members: number;
  spots_left: number;
  at_capacity: boolean;
}

/** `GET /api/members/overview`. */
export interface Overview {
  subscription: Subscription | null;
  is_subscriber: boolean;
  is_admin: boolean;
  tribe: TribeStatus;
  /** The group-chat invitation: only for active subscribers and admins, when the site has one. */
  group_chat_url: string | null;
}

export interface Profile {
  id: string;
  email: string;
  full_name: string;
  avatar_url: string | null;
  bio: string;
  phone: string;
  location: string;
  company: string;
  job_title: string;
  created_at: string;
  updated_at: string;
}

/** The fields a member may change on their profile. */
export type ProfileInput = Pick<
  Profile,
  'full_name' | 'bio' | 'phone' | 'location' | 'company' | 'job_title'
>;

export const COHORT_ICONS = [
  'users',
  'sparkles',
  'target',
  'rocket',
  'zap',
  'heart',
  'star',
] as const;
export type CohortIcon = (typeof COHORT_ICONS)[number];

export interface CohortMember {
  user_id: string;
  full_name: string;
  avatar_url: string | null;
  joined_at: string;
}

export interface Cohort {
  id: string;
  name: string;
  description: string;
  icon: CohortIcon;
  github_url: string | null;
  homepage_url: string | null;
  created_by: string | null;
  max_members: number;
  member_count: number;
  is_member: boolean;
  is_creator: boolean;
  is_full: boolean;
  members: CohortMember[];
  created_at: string;
  updated_at: string;
}

export interface CohortList {
  cohorts: Cohort[];
  my_cohort_id: string | null;
}

export interface CohortInput {
  name: string;
  description: string;
  icon: CohortIcon;
  github_url: string;
  homepage_url: string;
}

export type SessionStatus = 'scheduled' | 'live' | 'completed' | 'cancelled';

/** A live session; the meeting fields are absent when `locked` (free members). */
export interface LiveSession {
  id: string;
  title: string;
  description: string;
  tags: string[];
  session_date: string;
  session_time: string;
  duration: string;
  timezone: string;
  status: SessionStatus | string;
  max_attendees: number | null;
  starts_at: string;
  ends_at: string;
  upcoming: boolean;
  locked: boolean;
  zoom_meeting_id?: string;
  zoom_password?: string;
  zoom_join_url?: string;
  meeting_link?: string;
  created_at: string;
  updated_at: string;
}

export interface SessionList {
  sessions: LiveSession[];
  can_join: boolean;
}

/** What an admin sends to create or replace a session. */
export interface SessionInput {
  title: string;
  description: string;
  tags: string[];
  session_date: string;
  session_time: string;
  duration: string;
  timezone: string;
  status: SessionStatus;
  max_attendees: number | null;
  zoom_meeting_id: string;
  zoom_password: string;
  zoom_join_url: string;
  meeting_link: string;
}

export interface FeedStatus {
  exists: boolean;
  created_at: string | null;
}

export interface CreatedFeed {
  url: string;
  created_at: string;
}

export interface WaitlistEntry {
  id: string;
  full_name: string;
  email: string;
  created_at: string;
}

/** TanStack Query keys of the members area, one per resource. */
export const keys = {
  overview: ['members', 'overview'] as const,
  profile: ['members', 'profile'] as const,
  cohorts: ['members', 'cohorts'] as const,
  sessions: ['members', 'sessions'] as const,
  feed: ['members', 'calendar-feed'] as const,
  waitlist: ['members', 'waitlist'] as const,
};

const enc = encodeURIComponent;

export const membersApi = {
  overview: (signal?: AbortSignal) => api.get<Overview>('/api/members/overview', signal),
  resendConfirmation: () => api.post<{ message: string }>('/api/auth/confirm/resend'),

  profile: async (signal?: AbortSignal) =>
    (await api.get<{ profile: Profile }>('/api/profile', signal)).profile,
  updateProfile: async (input: ProfileInput) =>
    (await api.put<{ profile: Profile }>('/api/profile', input)).profile,
  uploadAvatar: async (file: File) => {
    const form = new FormData();
    form.append('avatar', file);
    return (await api.post<{ profile: Profile }>('/api/profile/avatar', form)).profile;
  },
  removeAvatar: async () => (await api.delete<{ profile: Profile }>('/api/profile/avatar')).profile,

  cohorts: (signal?: AbortSignal) => api.get<CohortList>('/api/cohorts', signal),
  createCohort: async (input: CohortInput) =>
    (await api.post<{ cohort: Cohort }>('/api/cohorts', input)).cohort,
  updateCohort: async (id: string, input: CohortInput) =>
    (await api.put<{ cohort: Cohort }>(`/api/cohorts/${enc(id)}`, input)).cohort,
  deleteCohort: (id: string) => api.delete<undefined>(`/api/cohorts/${enc(id)}`),
  joinCohort: async (id: string) =>
    (await api.post<{ cohort: Cohort }>(`/api/cohorts/${enc(id)}/join`)).cohort,
  leaveCohort: (id: string) => api.post<undefined>(`/api/cohorts/${enc(id)}/leave`),

  sessions: (signal?: AbortSignal) => api.get<SessionList>('/api/sessions', signal),
  createSession: async (input: SessionInput) =>
    (await api.post<{ session: LiveSession }>('/api/admin/sessions', input)).session,
  updateSession: async (id: string, input: SessionInput) =>
    (await api.put<{ session: LiveSession }>(`/api/admin/sessions/${enc(id)}`, input)).session,
  setSessionStatus: async (id: string, status: SessionStatus) =>
    (
      await api.put<{ session: LiveSession }>(`/api/admin/sessions/${enc(id)}/status`, {
        status,
      })
    ).session,
  deleteSession: (id: string) => api.delete<undefined>(`/api/admin/sessions/${enc(id)}`),

  feed: (signal?: AbortSignal) => api.get<FeedStatus>('/api/calendar/feed', signal),
  createFeed: () => api.post<CreatedFeed>('/api/calendar/feed'),
  deleteFeed: () => api.delete<undefined>('/api/calendar/feed'),

  waitlist: async (signal?: AbortSignal) =>
    (await api.get<{ entries: WaitlistEntry[] }>('/api/admin/waitlist', signal)).entries,
};

/** Where a session's own calendar file downloads from. */
export function sessionCalendarUrl(id: string): string {
  return `/api/sessions/${enc(id)}/calendar.ics`;
}

export const WAITLIST_CSV_URL = '/api/admin/waitlist.csv';
