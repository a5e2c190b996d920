/**
 * The shapes of the content files in the repository's content/ folder. They mirror the Go types
 * in internal/content (which validates the files when the server starts), field by field.
 */

export interface PactLetter {
  name: string;
  meaning: string;
}

export interface Principle {
  title: string;
  description: string;
}

export interface Client {
  name: string;
  sector: string;
}

/** A follower badge; `count` is display text such as "60K+". */
export interface Follower {
  platform: string;
  count: string;
  label: string;
  url: string;
}

/** about.json: who the consultant is. */
export interface About {
  name: string;
  handle: string;
  title: string;
  tagline: string;
  summary: string;
  approach: string;
  website: string;
  expertise: string[];
  pact: { summary: string; principles: PactLetter[] };
  philosophy: Principle[];
  clients: Client[];
  clients_note: string;
  biography: string[];
  followers: Follower[];
}

/** A one-to-one session; `duration` is in minutes, `price` in the file's currency. */
export interface Session {
  id: string;
  name: string;
  duration: number;
  price: number;
  /** What a signed-in tribe member pays, when lower (the server decides who is one). */
  member_price?: number;
  description: string;
  /** The external scheduler; absent for a native offer, empty when bookings are paused. */
  booking_link?: string;
  /** `native`: booked on the site itself at /book/{id}; otherwise `booking_link` is used. */
  booking?: string;
  /** The offer's own currency, when not the file's. */
  currency?: string;
  features: string[];
  popular: boolean;
}

/** A Neural Trader training card. */
export interface TrainingOption {
  id: string;
  title: string;
  subtitle?: string;
  price: number;
  /** What a signed-in tribe member pays, when lower (the server decides who is one). */
  member_price?: number;
  /** Shown struck through next to the price. */
  originalPrice?: number;
  duration: string;
  /** The call's length in minutes, for an option booked on the site. */
  duration_minutes?: number;
  /** A natively booked option sold by the seat: the default seats of each date the owner schedules. */
  seats?: number;
  capacity: string;
  features: string[];
  /** The external scheduler; absent for a native offer, empty when bookings are paused. */
  booking_link?: string;
  /**
   * `native`: booked on the site itself at /book/{id}; `inquiry`: the button opens the site's
   * inquiry form; otherwise `booking_link` is used.
   */
  booking?: string;
  /** The offer's own currency, when not the file's. */
  currency?: string;
  button_text: string;
  isPopular: boolean;
  isLimitedTime: boolean;
}

export interface NeuralTrader {
  name: string;
  description: string;
  group_sessions: { price: number; duration: string; capacity: string };
  private_training: { price: number; note: string };
  enterprise_package: { price: number; description: string };
  included_benefits: string[];
  booking_info: string;
}

/** The paid community membership. */
export interface TribeOffer {
  name: string;
  summary: string;
  price_monthly: number;
  currency: string;
  billing: string;
  session_cadence: string;
  session_length: string;
  cohort_size: string;
  /** The member cap; the live count comes from GET /api/tribe/status. */
  capacity: number;
  features: string[];
  what_you_will_build: string[];
}

export interface Step {
  title: string;
  description: string;
}

export interface Faq {
  question: string;
  answer: string;
}

/**
 * A session package: `count` calls of the type `type`, paid once, valid `valid_days` days after
 * the payment; each credit books one call without paying again.
 */
export interface SessionPackage {
  id: string;
  name: string;
  type: string;
  count: number;
  price: number;
  /** What a signed-in tribe member pays, when lower. */
  member_price?: number;
  /** The package's own currency, when not the file's. */
  currency?: string;
  valid_days: number;
  description?: string;
}

/** services.json: everything that has a price. */
export interface Services {
  currency: string;
  sessions: Session[];
  training: TrainingOption[];
  /** Session packages sold ahead (absent in an owner's older content). */
  packages?: SessionPackage[];
  neural_trader: NeuralTrader;
  tribe: TribeOffer;
  how_it_works: Step[];
  faq: Faq[];
}

/** A project card; `icon` is a lucide icon name, `page` the site's own showcase page if any. */
export interface Project {
  id: string;
  icon: string;
  name: string;
  badge?: string;
  description: string;
  url: string;
  page?: string;
  tags: string[];
}

export interface ProjectStats {
  total_repositories: number;
  total_repositories_display: string;
  github_url: string;
  npm_url?: string;
}

/** projects.json. */
export interface Projects {
  featured: Project[];
  projects: Project[];
  stats: ProjectStats;
}

export interface StackTool {
  name: string;
  description: string;
  url?: string;
}

/** stack.json: tools grouped by category. */
export interface Stack {
  categories: { id: string; name: string; description: string; tools: StackTool[] }[];
}

export interface SocialLinks {
  linkedin: string;
  github: string;
  youtube?: string;
  x?: string;
}

/** contact.json. */
export interface Contact {
  name: string;
  email: string;
  booking_url: string;
  website: string;
  message: string;
  online_presence: { links: SocialLinks };
}

/** What the server injects when the site owner replaces the content (TRIBE_CONTENT_DIR). */
export interface SiteContent {
  about: About;
  services: Services;
  projects: Projects;
  stack: Stack;
  contact: Contact;
}
