import { useEffect, useState } from 'react';
import { useLocation } from '@/lib/router';
import { documentScrollPercent } from '@/lib/scroll';

/**
 * A thin status line fixed at the top of every page: the current path, the percentage of the
 * page scrolled, and a 2 px bar that fills as the reader goes down.
 */
export function ScrollProgress() {
  const { pathname } = useLocation();
  const [percent, setPercent] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: recompute when the route (and so the page height) changes
  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      setPercent(documentScrollPercent());
    };
    const schedule = () => {
      if (frame === 0) frame = window.requestAnimationFrame(update);
    };
    update();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    const observer =
      typeof ResizeObserver === 'function' ? new ResizeObserver(() => schedule()) : undefined;
    observer?.observe(document.body);
    return () => {
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      observer?.disconnect();
      if (frame !== 0) window.cancelAnimationFrame(frame);
    };
  }, [pathname]);

  return (
    <div
      className="fixed inset-x-0 top-0 z-50 h-5 border-b border-ink-800 bg-ink-950/95 font-mono text-[11px] leading-5 backdrop-blur"
      role="progressbar"
      aria-label="Page scrolled"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={`${percent}% scrolled`}
    >
      <div className="mx-auto flex h-full max-w-6xl items-center justify-between px-4 sm:px-6 lg:px-8">
        <span className="truncate text-dim" aria-hidden="true">
          <span className="text-term-green">●</span> ruv.io:~{pathname === '/' ? '' : pathname}
        </span>
        <span className="tabular-nums text-muted" data-testid="scroll-percent">
          {percent}%
        </span>
      </div>
      <div
        className="absolute inset-x-0 -bottom-px h-0.5 origin-left bg-linear-to-r from-term-green to-term-cyan transition-transform duration-100 ease-out"
        style={{ transform: `scaleX(${percent / 100})` }}
        aria-hidden="true"
      />
    </div>
  );
}
