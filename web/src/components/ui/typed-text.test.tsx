import { act, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { installMatchMedia } from '@/test/match-media';
import { TypedText } from './typed-text';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

// A showcase page's title: the block layout.
describe('TypedText, block layout', () => {
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

  it('marks the drawn copy with data-typing only while it types', () => {
    const { container } = render(<Heading />);
    expect(container.querySelector('[data-typing]')).not.toBeNull();
    act(() => {
      vi.advanceTimersByTime(400 + 60 * 20);
    });
    expect(container.querySelector('[data-typing]')).toBeNull();
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

// The tribe page's centred tagline: the inline layout.
describe('TypedText, inline layout', () => {
  /** The typed lines drawn over the whole text, one string per line. */
  function typedLines(container: HTMLElement): string[] {
    const overlay = container.querySelector('[data-typed-lines]');
    return [...(overlay?.children ?? [])].map((line) => line.textContent ?? '');
  }

  it('renders the whole text on the server, visible, with the caret after it', () => {
    const html = renderToString(<TypedText text="abc" layout="inline" />);
    expect(html).toContain('<span class="sr-only">abc</span>');
    expect(html).not.toContain('invisible');
    expect(html).not.toContain('data-typing');
    expect(html).toContain('animate-blink');
  });

  it('types the text out after the delay, keeping the whole text for screen readers', () => {
    const { container } = render(<TypedText text="abc" speed={30} delay={1000} layout="inline" />);
    expect(container.querySelector('.sr-only')).toHaveTextContent('abc');
    expect(typedLines(container)).toEqual(['']);
    act(() => vi.advanceTimersByTime(1000));
    expect(typedLines(container)).toEqual(['a']);
    act(() => vi.advanceTimersByTime(30));
    expect(typedLines(container)).toEqual(['ab']);
    act(() => vi.advanceTimersByTime(60));
    expect(container.querySelector('[data-typed-lines]')).toBeNull();
    expect(container.querySelector('.invisible')).toBeNull();
    expect(container.querySelector('[aria-hidden="true"]')).toHaveTextContent('abc');
  });

  it('keeps the whole text laid out, invisibly, under the typed copy, so nothing moves', () => {
    const { container } = render(<TypedText text="abc" delay={0} speed={30} layout="inline" />);
    act(() => vi.advanceTimersByTime(0));
    expect(container.querySelector('.invisible')).toHaveTextContent('abc');
  });

  it('breaks the typed copy where the whole text breaks, one centred line at a time', () => {
    // Lay "one two three" out on two lines: "one two " and "three".
    const text = 'one two three';
    // jsdom lays nothing out: give ranges the tops a browser would.
    const rects = vi.fn(function (this: Range) {
      const top = this.startOffset >= text.indexOf('three') ? 40 : 10;
      return [{ top } as DOMRect] as unknown as DOMRectList;
    });
    Object.defineProperty(Range.prototype, 'getClientRects', { value: rects, configurable: true });
    onTestFinished(() => {
      delete (Range.prototype as Partial<Range>).getClientRects;
    });
    const { container } = render(<TypedText text={text} delay={0} speed={10} layout="inline" />);
    act(() => vi.advanceTimersByTime(10 * 5));
    // "one tw" typed: the second line has not started.
    expect(typedLines(container)).toEqual(['one tw']);
    act(() => vi.advanceTimersByTime(10 * 4));
    expect(typedLines(container)).toEqual(['one two ', 'th']);
    // Each line is a block of its own, centred by its paragraph like the final text.
    const overlay = container.querySelector('[data-typed-lines]');
    expect([...(overlay?.children ?? [])].every((line) => line.classList.contains('block'))).toBe(
      true,
    );
    expect(rects).toHaveBeenCalled();
  });

  it('shows the whole text at once for people who prefer reduced motion', () => {
    installMatchMedia(1024, true);
    const { container } = render(<TypedText text="abc" layout="inline" />);
    act(() => vi.advanceTimersByTime(5000));
    expect(container.querySelector('[data-typed-lines]')).toBeNull();
    expect(container.querySelector('[aria-hidden="true"]')).toHaveTextContent('abc');
  });
});
