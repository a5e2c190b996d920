import { ArrowRight, CalendarClock, Terminal } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { Container } from '@/components/ui/container';
import { deferredPart } from '@/lib/deferred-part';
import { usePageTitle } from '@/lib/page-title';
import { Link, useSearchParams } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';

// Below the hero nothing reacts until someone reaches for it: a first visit keeps the server's
// HTML of the sections and loads their code (and their icons) only then.
const HomeSections = deferredPart(
  'home-sections',
  async () => (await import('./HomeSections')).HomeSections,
  { onLinkClick: scrollToTopSmooth },
);

const GoalDialog = lazy(async () => ({ default: (await import('./GoalDialog')).GoalDialog }));

/** The query flag that opens the goal-planning dialog, as in `/?goal=true`. */
export const GOAL_FLAG = 'goal';

/** Opens the goal-planning dialog when the page was opened with `?goal=true`. */
function useGoalFlag(): [boolean, () => void] {
  const [params, setParams] = useSearchParams();
  const flagged = params.get(GOAL_FLAG) === 'true';
  const [open, setOpen] = useState(false);
  // Opened after hydration: the prerendered HTML never has the dialog.
  useEffect(() => {
    if (flagged) setOpen(true);
  }, [flagged]);
  const close = () => {
    setOpen(false);
    const next = new URLSearchParams(params);
    next.delete(GOAL_FLAG);
    setParams(next, { replace: true });
  };
  return [open, close];
}

export interface HomePageProps {
  /**
   * The interactive console, composed in by the app (a feature of its own). Its chunk loads
   * after the page; the prerendered HTML already shows its first transcript.
   */
  consoleSlot?: ReactNode;
}

/** Home: the hero with the console, then the sections (their own chunk). */
export function HomePage({ consoleSlot = null }: HomePageProps) {
  usePageTitle('Agentic Coaching & Mentoring');
  const [goalOpen, closeGoal] = useGoalFlag();
  return (
    <>
      <section className="relative isolate overflow-hidden border-b border-ink-800">
        <div aria-hidden="true" className="absolute inset-0 -z-10 bg-grid" />
        <div
          aria-hidden="true"
          className="absolute -top-40 left-1/2 -z-10 h-96 w-[48rem] max-w-[200vw] -translate-x-1/2 bg-[radial-gradient(closest-side,rgb(74_222_128/0.12),transparent)]"
        />
        <Container className="grid items-center gap-10 py-12 sm:py-20 lg:grid-cols-[1.1fr_1fr] lg:gap-12 lg:py-24">
          <div className="min-w-0 motion-safe:animate-fade-up">
            <p className="font-mono text-sm text-dim">
              <span className="text-term-green">$</span> whoami
              <span className="ml-2 text-muted">rUv · Reuven Cohen</span>
            </p>
            <h1 className="mt-4 text-4xl font-bold leading-tight text-fg sm:text-5xl">
              <span className="text-term-green">Agentic</span> Coaching &amp; Mentoring
            </h1>
            <p className="mt-5 font-mono text-base text-term-cyan sm:text-lg">
              Personalized AI Mastery: One-on-One Consultations Available
            </p>
            <p className="mt-5 max-w-xl text-base text-muted sm:text-lg">
              Independent consultant and enterprise AI architect. I help developers, teams and
              enterprises design, build and ship AI agents, from a first prototype to multi-agent
              systems running in production.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Link
                to="/booking"
                onClick={scrollToTopSmooth}
                className={buttonClasses('primary', 'lg')}
              >
                <CalendarClock size={18} aria-hidden="true" />
                Book a Session
              </Link>
              <Link
                to="/about"
                onClick={scrollToTopSmooth}
                className={buttonClasses('outline', 'lg')}
              >
                About
                <ArrowRight size={18} aria-hidden="true" />
              </Link>
            </div>
            <p className="mt-6 flex items-start gap-2 font-mono text-sm text-dim">
              <Terminal size={16} aria-hidden="true" className="mt-0.5 shrink-0 text-term-green" />
              <span>
                Prefer the command line? Type <code className="text-term-cyan">help</code> in the
                console for every command, or try <code className="text-term-cyan">services</code>,{' '}
                <code className="text-term-cyan">booking</code>,{' '}
                <code className="text-term-cyan">search &lt;query&gt;</code> and{' '}
                <code className="text-term-cyan">ask &lt;question&gt;</code>. Anything else you type
                is answered from the site's knowledge base.
              </span>
            </p>
          </div>

          <div data-slot="console" className="min-w-0 motion-safe:animate-fade-up">
            {consoleSlot}
          </div>
        </Container>
      </section>

      <HomeSections />

      {goalOpen ? (
        <Suspense fallback={null}>
          <GoalDialog onClose={closeGoal} />
        </Suspense>
      ) : null}
    </>
  );
}
