import { BookingAdmin } from '@/features/booking/admin/BookingAdmin';
import { InsightsLink } from '@/features/insights/InsightsLink';
import { MembersPage } from '@/features/members/MembersPage';

/** /members: the members area, with booking's section and the way to Insights in its Admin tab. */
export function MembersRoute() {
  return (
    <MembersPage
      adminExtra={
        <>
          <InsightsLink />
          <BookingAdmin />
        </>
      }
    />
  );
}
