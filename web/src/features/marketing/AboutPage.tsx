import { CalendarClock } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';
import { scrollToTopSmooth } from '@/lib/scroll';

const pact = [
  { letter: 'P', word: 'Proactive', text: 'Agents that act on goals, not only on prompts.' },
  {
    letter: 'A',
    word: 'Autonomous',
    text: 'Systems that plan, use tools and recover on their own.',
  },
  { letter: 'C', word: 'Collaborative', text: 'Many agents, and people, working on one task.' },
  { letter: 'T', word: 'Targeted', text: 'Built for a measurable outcome, not a demo.' },
] as const;

export function AboutPage() {
  return (
    <Page title="About">
      <PageHeader
        command="cat about.md"
        title="About rUv"
        lead="I'm Reuven Cohen, known online as rUv: an independent AI consultant and enterprise AI architect. I build open-source agent frameworks and help developers, teams and enterprises put agentic AI to work."
      />
      <section aria-labelledby="pact" className="mt-12">
        <h2 id="pact" className="text-xl font-semibold text-fg">
          PACT: how I think about agents
        </h2>
        <ul className="mt-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {pact.map((item) => (
            <li key={item.letter}>
              <Card className="h-full">
                <p className="font-mono text-3xl font-bold text-term-green">{item.letter}</p>
                <p className="mt-2 font-mono text-fg">{item.word}</p>
                <p className="mt-1 text-sm text-muted">{item.text}</p>
              </Card>
            </li>
          ))}
        </ul>
      </section>
      <div className="mt-12">
        <Link to="/booking" onClick={scrollToTopSmooth} className={buttonClasses('primary', 'lg')}>
          <CalendarClock size={18} aria-hidden="true" />
          Book a session
        </Link>
      </div>
    </Page>
  );
}
