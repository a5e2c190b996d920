import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { Tabs, TabsContent, TabsList, TabsTrigger } from './tabs';

function Example() {
  return (
    <Tabs defaultValue="rust">
      <TabsList aria-label="Quick start language">
        <TabsTrigger value="rust">Rust</TabsTrigger>
        <TabsTrigger value="ts">TypeScript</TabsTrigger>
        <TabsTrigger value="go">Go</TabsTrigger>
      </TabsList>
      <TabsContent value="rust">cargo add aimds-core</TabsContent>
      <TabsContent value="ts">npm install aimds</TabsContent>
      <TabsContent value="go">go get example.com/aimds</TabsContent>
    </Tabs>
  );
}

describe('Tabs', () => {
  it('exposes tablist, tab and tabpanel roles with the first tab selected', () => {
    render(<Example />);
    expect(screen.getByRole('tablist', { name: 'Quick start language' })).toBeInTheDocument();
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Rust', 'TypeScript', 'Go']);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    expect(tabs[1]).toHaveAttribute('aria-selected', 'false');
    const panel = screen.getByRole('tabpanel');
    expect(panel).toHaveTextContent('cargo add aimds-core');
    expect(panel).toHaveAttribute('aria-labelledby', tabs[0]?.id);
    expect(tabs[0]).toHaveAttribute('aria-controls', panel.id);
  });

  it('moves the selection with ArrowRight, ArrowLeft, End and Home', async () => {
    const user = userEvent.setup();
    render(<Example />);
    const [rust, ts, go] = screen.getAllByRole('tab');
    await user.tab();
    expect(rust).toHaveFocus();

    await user.keyboard('{ArrowRight}');
    expect(ts).toHaveFocus();
    expect(ts).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('npm install aimds');

    await user.keyboard('{End}');
    expect(go).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('go get example.com/aimds');

    await user.keyboard('{ArrowRight}');
    expect(rust).toHaveAttribute('aria-selected', 'true');

    await user.keyboard('{ArrowLeft}');
    expect(go).toHaveAttribute('aria-selected', 'true');

    await user.keyboard('{Home}');
    expect(rust).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('cargo add aimds-core');
  });

  it('keeps the selected tab the only one in the tab order', async () => {
    const user = userEvent.setup();
    render(
      <>
        <Example />
        <button type="button">after</button>
      </>,
    );
    await user.tab();
    expect(screen.getByRole('tab', { name: 'Rust' })).toHaveFocus();
    await user.tab();
    // Tab leaves the tab list for the panel (focusable), then the next control.
    expect(screen.getByRole('tabpanel')).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'after' })).toHaveFocus();
  });

  it('switches on click', async () => {
    const user = userEvent.setup();
    render(<Example />);
    await user.click(screen.getByRole('tab', { name: 'TypeScript' }));
    expect(screen.getByRole('tabpanel')).toHaveTextContent('npm install aimds');
  });

  it('renders the default panel in server HTML', () => {
    const html = renderToString(<Example />);
    expect(html).toContain('role="tablist"');
    expect(html).toContain('aria-selected="true"');
    expect(html).toContain('cargo add aimds-core');
    expect(html).not.toContain('npm install aimds');
  });

  it('scrolls a row too wide for the screen so the newly selected tab is wholly in view', async () => {
    const user = userEvent.setup();
    render(
      <Tabs defaultValue="a">
        <TabsList aria-label="Members area">
          {['a', 'b', 'c', 'd'].map((v) => (
            <TabsTrigger key={v} value={v}>
              {v}
            </TabsTrigger>
          ))}
        </TabsList>
        {['a', 'b', 'c', 'd'].map((v) => (
          <TabsContent key={v} value={v}>
            panel {v}
          </TabsContent>
        ))}
      </Tabs>,
    );
    const list = screen.getByRole('tablist');
    expect(list.className).toMatch(/max-sm:overflow-x-auto/);
    expect(list.className).not.toMatch(/(^| )flex-wrap/);
    // A 300 px row of four 100 px tabs (jsdom lays nothing out).
    const box = (left: number, width: number) =>
      ({ left, right: left + width, width, top: 0, bottom: 44 }) as DOMRect;
    Object.defineProperty(list, 'scrollWidth', { value: 400 });
    Object.defineProperty(list, 'clientWidth', { value: 300 });
    list.getBoundingClientRect = () => box(0, 300);
    screen.getAllByRole('tab').forEach((tab, i) => {
      tab.getBoundingClientRect = () => box(i * 100, 100);
    });
    const scrollTo = vi.fn();
    list.scrollTo = scrollTo as unknown as typeof list.scrollTo;

    await user.click(screen.getByRole('tab', { name: 'b' }));
    await new Promise((r) => setTimeout(r, 0));
    expect(scrollTo).not.toHaveBeenCalled(); // already in view

    // "d" runs 100 px past the right edge: scroll by that and a margin.
    await user.click(screen.getByRole('tab', { name: 'd' }));
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith({ left: 116 }));
  });
});
