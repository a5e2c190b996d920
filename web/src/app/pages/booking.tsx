import { PackagesSection } from '@/features/booking/PackagesSection';
import { BookingPage } from '@/features/marketing/BookingPage';

/** /booking: the offers page with the booking feature's session packages (buy flow) in it. */
export function BookingRoute() {
  return <BookingPage Packages={PackagesSection} />;
}
