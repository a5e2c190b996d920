import type { MouseEvent } from 'react';

export const MAIN_ID = 'main';

function focusMain(event: MouseEvent<HTMLAnchorElement>) {
  const main = document.getElementById(MAIN_ID);
  if (!main) return;
  event.preventDefault();
  main.focus();
  main.scrollIntoView({ block: 'start' });
}

export function SkipLink() {
  return (
    <a
      href={`#${MAIN_ID}`}
      onClick={focusMain}
      className="sr-only focus:not-sr-only focus:fixed focus:top-7 focus:left-4 focus:z-[70] focus:rounded-md focus:bg-term-green focus:px-4 focus:py-2 focus:font-mono focus:text-sm focus:font-semibold focus:text-ink-950"
    >
      Skip to content
    </a>
  );
}
