import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { installMatchMedia } from './match-media';

// Lazy page chunks are transformed on first import; give them time.
configure({ asyncUtilTimeout: 5000 });

// Node-environment tests (scripts/) have no DOM to prepare.
const hasDom = typeof window !== 'undefined';

beforeEach(() => {
  if (!hasDom) return;
  installMatchMedia(1024);
  // jsdom does not implement scrolling; record calls instead.
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  Element.prototype.scrollIntoView = vi.fn();
});

afterEach(() => {
  if (!hasDom) return;
  cleanup();
  document.body.style.overflow = '';
  document.documentElement.style.overflow = '';
});
