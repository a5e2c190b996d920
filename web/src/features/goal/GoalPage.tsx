import { CalendarClock } from 'lucide-react';
import { GoalPlanner } from '@/components/goal-planner';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';

/** The goal planner page: a goal in, a step-by-step plan out (components/goal-planner). */
export function GoalPage() {
  return (
    <Page title="Goal planner">
      <PageHeader
        command="goal --plan"
        title="Goal planner"
        lead="Describe a goal and get a step-by-step plan for reaching it: milestones, resources from this site's knowledge base, and the coaching session that fits."
      />
      <Card className="mt-10 max-w-3xl">
        <GoalPlanner />
      </Card>
      <p className="mt-6 flex max-w-3xl flex-wrap items-center gap-3 text-sm text-muted">
        Rather plan it together?
        <Link to="/booking" onClick={scrollToTopSmooth} className={buttonClasses('outline', 'sm')}>
          <CalendarClock size={16} aria-hidden="true" />
          Book a session
        </Link>
      </p>
    </Page>
  );
}
