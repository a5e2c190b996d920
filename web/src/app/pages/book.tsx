import { BookingStatusPage } from '@/features/booking/BookingStatusPage';
import { BookPage } from '@/features/booking/BookPage';
import { CreditsPage } from '@/features/booking/CreditsPage';
import { useLocation } from '@/lib/router';
import { pageMeta } from '../seo';

/**
 * /book/{type} (an offer's booking page, titled as its prerendered HTML is), /bookings/{id} and
 * /bookings/credits (the credits of a session package; booking ids are UUIDs, never "credits").
 */
export function BookingPages() {
  const { pathname } = useLocation();
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path === '/bookings/credits') return <CreditsPage />;
  if (!path.startsWith(BOOK_PREFIX)) return <BookingStatusPage />;
  return (
    <BookPage
      type={path.slice(BOOK_PREFIX.length)}
      title={pageMeta[path]?.title ?? 'Book a session'}
    />
  );
}

const BOOK_PREFIX = '/book/';
