import { BookingAdmin } from '@/features/booking/admin/BookingAdmin';
import { MembersPage } from '@/features/members/MembersPage';

/** /members: the members area, with booking's section in its Admin tab. */
export function MembersRoute() {
  return <MembersPage adminExtra={<BookingAdmin />} />;
}
