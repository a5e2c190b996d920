/**
 * The server's JSON objects that more than one part of the app reads (docs/api.md). Each is an
 * interface whose property names are the JSON field names, named after the server's object.
 * Types read by one feature only live in that feature's `api/types.ts`.
 */

/** The body of every error answer: `{"error": {"code", "message"}}`. */
export interface ApiErrorBody {
  error: ApiErrorDetail;
}

export interface ApiErrorDetail {
  /** Machine-readable, e.g. `invalid_credentials`, `rate_limited`. */
  code: string;
  /** Written for a person; the app shows it as is. */
  message: string;
  /** The request field the error is about, when there is one (e.g. `password`). */
  field?: string;
}

/** The paid-membership part of a user (and of the members overview), `null` for a free member. */
export interface Subscription {
  status: string;
  current_period_end: string | null;
  cancel_at_period_end: boolean;
  /** Given by an admin: never charged; `current_period_end` is its end, or null for no end. */
  complimentary: boolean;
  /** A Stripe subscription is linked (after Checkout the page waits for `active` with one). */
  has_subscription_id: boolean;
}

/** The user object (docs/api.md, "Accounts and sessions"). */
export interface User {
  id: string;
  email: string;
  email_confirmed: boolean;
  full_name: string;
  avatar_url: string | null;
  is_admin: boolean;
  /** The profile name predates the proof of the address (see docs/api.md, "Proving the address"). */
  name_unverified: boolean;
  created_at: string;
  subscription: Subscription | null;
}

/** `GET /api/auth/session`: the signed-in user, or null. */
export interface SessionBody {
  user: User | null;
}

/** Sign-in, sign-up and password reset: the user the answer signed in. */
export interface UserBody {
  user: User;
}

/** Answers that only carry a sentence for a person (password forgot, confirmation resend). */
export interface MessageBody {
  message: string;
}

/** `GET /api/tribe/status`, and `tribe` in the members overview: the member cap and its use. */
export interface TribeStatus {
  capacity: number;
  active_members: number;
  /** Seats held by checkouts in progress: taken until paid, free again if not paid in time. */
  held: number;
  /** What a new checkout can still take: capacity less members and held seats. */
  spots_left: number;
  /** No seat left for a new checkout (members and held seats fill the cap). */
  at_capacity: boolean;
  /** Online payment is set up: Subscribe can take a member to checkout. */
  payments_enabled: boolean;
}

/** A knowledge-base document's metadata (`kb.Metadata`). */
export interface KnowledgeMetadata {
  title: string;
  category: string;
  type: string;
  source: string;
  tags: string[];
}

/** One passage POST /api/search found (`kb.Result`); similarity is between 0 and 1. */
export interface SearchResult {
  content: string;
  metadata: KnowledgeMetadata;
  similarity: number;
}

/** The reply of POST /api/search (`kb.Results`); ranking says which ranking ran. */
export interface SearchResponse {
  results: SearchResult[];
  ranking: string;
}

/** Documents seeded per part of the site (`kb.SeedBreakdown`). */
export interface SeedBreakdown {
  about: number;
  services: number;
  projects: number;
  stack: number;
  contact: number;
  community: number;
}

/** The reply of POST /api/admin/kb/seed (`kb.SeedResult`). */
export interface SeedResult {
  count: number;
  message: string;
  breakdown: SeedBreakdown;
}

/** The server's settings for pages, embedded as #tribe-config (internal/web/page_config.go). */
export interface PageConfig {
  goal_widget_url?: string;
}
