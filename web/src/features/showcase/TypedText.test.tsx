import { act, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installMatchMedia } from '@/test/match-media';
import { TypedText } from './TypedText';

function Heading() {
  return (
    <h1>
      <TypedText text="Agentic Payments" speed={60} delay={400} />
    </h1>
  );
}

/** The characters drawn on screen (the typed copy while typing, else the full text). */
function visibleText(container: HTMLElement): string {
  const shown = container.querySelector('[aria-hidden="true"] > span:not(.invisible)');
  return shown?.textContent ?? '';
}

describe('TypedText', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('renders the whole text on the server', () => {
    const html = renderToString(<Heading />);
    expect(html).toContain('<span class="sr-only">Agentic Payments</span>');
    expect(html).not.toContain('invisible');
  });

  it('types the text out on the client while the heading keeps its full name', () => {
    const { container } = render(<Heading />);
    expect(screen.getByRole('heading', { level: 1, name: 'Agentic Payments' })).toBeVisible();
    expect(visibleText(container)).toBe('');

    act(() => {
      vi.advanceTimersByTime(400 + 60 * 6);
    });
    expect(visibleText(container)).toBe('Agentic');
    expect(screen.getByRole('heading', { level: 1, name: 'Agentic Payments' })).toBeVisible();

    act(() => {
      vi.advanceTimersByTime(60 * 20);
    });
    expect(visibleText(container)).toBe('Agentic Payments');
    expect(container.querySelector('.invisible')).toBeNull();
  });

  it('shows the whole text at once when the reader prefers reduced motion', () => {
    installMatchMedia(1024, true);
    const { container } = render(<Heading />);
    expect(visibleText(container)).toBe('Agentic Payments');
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(visibleText(container)).toBe('Agentic Payments');
  });
});
