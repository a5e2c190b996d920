import { BookingStatusPage } from '@/features/booking/BookingStatusPage';
import { BookPage } from '@/features/booking/BookPage';
import { useLocation } from '@/lib/router';
import { pageMeta } from '../seo';

/** /book/{type}: the booking page of one offer, titled as its prerendered HTML is. */
export function BookRoute() {
  const { pathname } = useLocation();
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (
    <BookPage
      type={path.slice(BOOK_PREFIX.length)}
      title={pageMeta[path]?.title ?? 'Book a session'}
    />
  );
}

/** /bookings/{id}?token=…: one booking through its manage link. */
export function BookingRoute() {
  return <BookingStatusPage />;
}

const BOOK_PREFIX = '/book/';
