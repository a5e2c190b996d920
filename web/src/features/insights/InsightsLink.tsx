import { BarChart3 } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Link } from '@/lib/router';

/** The way into Insights from the members area's Admin tab; the page itself is its own chunk. */
export function InsightsLink() {
  return (
    <Card className="flex flex-wrap items-center justify-between gap-4">
      <div>
        <h2 className="text-xl font-semibold text-fg">Insights</h2>
        <p className="mt-1 text-sm text-muted">
          Recurring revenue, churn, seats, bookings and session turnout over a period.
        </p>
      </div>
      <Link to="/admin/insights" className={buttonClasses('outline', 'sm')}>
        <BarChart3 size={16} aria-hidden="true" />
        Open Insights
      </Link>
    </Card>
  );
}
