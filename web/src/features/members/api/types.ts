/**
 * The JSON of the members-area endpoints (docs/api.md, "Members area"), as the server writes it:
 * each object is an interface named after the server's object, with the JSON field names. The
 * user, subscription and tribe status are shared with other parts of the app (lib/api-types.ts).
 */
import type { KnowledgeMetadata, Subscription, TribeStatus } from '@/lib/api-types';

/** `GET /api/members/overview`. */
export interface MembersOverview {
  subscription: Subscription | null;
  is_subscriber: boolean;
  is_admin: boolean;
  tribe: TribeStatus;
  /** The group-chat invitation: only for active subscribers and admins, when the site has one. */
  group_chat_url: string | null;
}

/** The member's profile: `GET /api/profile` and the answers of its changes. */
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
  /** The name was set before the address was confirmed, maybe by someone else: ask the owner to check it. */
  name_unverified: boolean;
  created_at: string;
  updated_at: string;
}

/** `GET /api/profile`, `PUT /api/profile`, `POST` and `DELETE /api/profile/avatar`. */
export interface ProfileBody {
  profile: Profile;
}

/** What `PUT /api/profile` takes: the fields a member may change. */
export interface ProfileInput {
  full_name: string;
  bio: string;
  phone: string;
  location: string;
  company: string;
  job_title: string;
}

/** The icons a cohort may have, in the order the form offers them. */
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

/** One member of a cohort, as listed in the cohort. */
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

/** `GET /api/cohorts`. */
export interface CohortList {
  cohorts: Cohort[];
  my_cohort_id: string | null;
}

/** `POST /api/cohorts`, `PUT /api/cohorts/{id}`, `POST /api/cohorts/{id}/join`. */
export interface CohortBody {
  cohort: Cohort;
}

/** What creating or editing a cohort sends. */
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

/** `GET /api/sessions`. */
export interface LiveSessionList {
  sessions: LiveSession[];
  can_join: boolean;
}

/** `POST /api/admin/sessions`, `PUT /api/admin/sessions/{id}` and `…/{id}/status`. */
export interface LiveSessionReply {
  session: LiveSession;
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

/** `GET /api/calendar/feed`: whether the member has a private calendar feed, and since when. */
export interface FeedStatus {
  exists: boolean;
  created_at: string | null;
}

/** `POST /api/calendar/feed`: the new feed's URL, shown once. */
export interface FeedCreated {
  url: string;
  created_at: string;
}

/** One person on the tribe's wait list. */
export interface WaitlistEntry {
  id: string;
  full_name: string;
  email: string;
  created_at: string;
}

/** `GET /api/admin/waitlist`, newest first. */
export interface WaitlistEntries {
  entries: WaitlistEntry[];
}

/** `POST /api/billing/checkout`: the page Stripe returns to. */
export interface CheckoutRequest {
  redirect_to: string;
}

/** `POST /api/billing/checkout` and `POST /api/billing/portal`: where to send the browser. */
export interface UrlReply {
  url: string;
}

/** `POST /api/billing/refresh`: the subscription as it now stands (null for a free member). */
export interface SubscriptionReply {
  subscription: Subscription | null;
}

/** One row of the admins' members list. */
export interface AdminMember {
  user_id: string;
  full_name: string;
  email: string;
  status: string;
  has_access: boolean;
  joined_at: string;
  complimentary: boolean;
  /** Last day (YYYY-MM-DD, UTC) of a complimentary membership; null for no end. */
  until: string | null;
  current_period_end: string | null;
  cancel_at_period_end: boolean;
}

/** `GET /api/admin/members`. */
export interface AdminMemberList {
  members: AdminMember[];
}

/** `PUT /api/admin/members/{id}/complimentary`. */
export interface AdminMemberReply {
  member: AdminMember;
}

/** What `PUT /api/admin/members/{id}/complimentary` takes: the last day, or null for no end. */
export interface CompRequest {
  until: string | null;
}

/** A knowledge-base document (`kb.Document`); `seeded` ones are rebuilt from the content files by seeding. */
export interface KnowledgeDocument {
  id: string;
  content: string;
  metadata: KnowledgeMetadata;
  seeded: boolean;
  created_at: string;
  updated_at: string;
}

/** `GET /api/admin/documents`: one page, newest first, and how many there are in all (`kb.DocumentList`). */
export interface KnowledgeDocumentList {
  documents: KnowledgeDocument[];
  total: number;
}

/** `POST /api/admin/documents` and `PUT /api/admin/documents/{id}`. */
export interface KnowledgeDocumentReply {
  document: KnowledgeDocument;
}

/** What adding or editing a document sends (`kb.Input`); a metadata field left out keeps its value on an edit. */
export interface DocumentInput {
  title: string;
  content: string;
  category?: string;
  type?: string;
  source?: string;
  tags?: string[];
}
