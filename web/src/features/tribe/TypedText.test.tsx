import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installMatchMedia } from '@/test/match-media';
import { TypedText } from './TypedText';

function typedPart(container: HTMLElement): string {
  const drawn = container.querySelector('[aria-hidden="true"]');
  return drawn?.firstChild?.nodeType === Node.TEXT_NODE ? (drawn.firstChild.textContent ?? '') : '';
}

afterEach(() => {
  vi.useRealTimers();
});

describe('TypedText', () => {
  it('types the text out after the delay, keeping the whole text for screen readers', () => {
    vi.useFakeTimers();
    const { container } = render(<TypedText text="abc" speed={30} delay={1000} />);
    expect(container.querySelector('.sr-only')).toHaveTextContent('abc');
    expect(typedPart(container)).toBe('');
    act(() => vi.advanceTimersByTime(1000));
    expect(typedPart(container)).toBe('a');
    act(() => vi.advanceTimersByTime(60));
    expect(typedPart(container)).toBe('abc');
  });

  it('lays out the part not yet typed, invisibly, so nothing moves while it types', () => {
    vi.useFakeTimers();
    const { container } = render(<TypedText text="abc" delay={0} speed={30} />);
    act(() => vi.advanceTimersByTime(0));
    expect(container.querySelector('.invisible')).toHaveTextContent('bc');
  });

  it('shows the whole text at once for people who prefer reduced motion', () => {
    installMatchMedia(1024, true);
    vi.useFakeTimers();
    const { container } = render(<TypedText text="abc" />);
    expect(typedPart(container)).toBe('abc');
    expect(container.querySelector('.invisible')).toBeEmptyDOMElement();
  });
});
