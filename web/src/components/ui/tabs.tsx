import * as TabsPrimitive from '@radix-ui/react-tabs';
import { type ComponentProps, type Ref, useCallback, useEffect, useRef } from 'react';
import { cn } from '@/lib/cn';

/**
 * Tabs in the terminal style, over Radix Tabs: ARIA tablist/tab/tabpanel roles, roving focus,
 * and ArrowLeft/ArrowRight/Home/End move between tabs (selecting the focused one).
 * Panels carry stable ids from React's useId, so the prerendered HTML hydrates cleanly.
 */
export function Tabs({ className, ...rest }: ComponentProps<typeof TabsPrimitive.Root>) {
  return <TabsPrimitive.Root className={cn('w-full', className)} {...rest} />;
}

/** Scrolls `list` sideways, when it scrolls, so its selected tab is wholly in view. */
export function revealSelectedTab(list: HTMLElement): void {
  const selected = list.querySelector<HTMLElement>('[role="tab"][data-state="active"]');
  if (!selected || list.scrollWidth <= list.clientWidth) return;
  const box = list.getBoundingClientRect();
  const tab = selected.getBoundingClientRect();
  const margin = 16;
  let by = 0;
  if (tab.left < box.left) by = tab.left - box.left - margin;
  else if (tab.right > box.right) by = tab.right - box.right + margin;
  if (by !== 0) list.scrollTo({ left: list.scrollLeft + by });
}

/** How a row of tabs behaves on phones (below the sm breakpoint). */
export type TabsPhoneLayout = 'scroll' | 'grid';

export interface TabsListProps extends ComponentProps<typeof TabsPrimitive.List> {
  /**
   * `scroll` (the default): the tabs stay on one line that scrolls sideways (the last visible tab
   * is cut off, which shows there is more), for rows of a few short tabs. `grid`: every tab is in
   * view, as a grid of buttons whose columns the caller sets (`max-sm:grid-cols-2`), for rows
   * whose tabs matter equally and must not hide behind a scroll, such as the members area's.
   */
  phone?: TabsPhoneLayout;
}

/**
 * The row of tabs; give it an `aria-label` naming what the tabs choose between. On phones the
 * row either scrolls or becomes a grid (`phone`); a scrolling row does not wrap into a second row
 * that breaks the folder-tab look, and scrolls its selected tab into view whenever the selection
 * changes (focus does the same for the arrow keys). The bottom rule is an inset shadow there,
 * because the scrolling box would clip the 1 px the active tab overlaps the border by. From the
 * sm breakpoint the row wraps.
 */
export function TabsList({ className, ref, phone = 'scroll', ...rest }: TabsListProps) {
  const own = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const list = own.current;
    if (!list) return;
    revealSelectedTab(list);
    const observer = new MutationObserver(() => revealSelectedTab(list));
    observer.observe(list, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
    return () => observer.disconnect();
  }, []);
  const setRef = useCallback(
    (element: HTMLDivElement | null) => {
      own.current = element;
      assignRef(ref, element);
    },
    [ref],
  );
  return (
    <TabsPrimitive.List
      ref={setRef}
      data-phone={phone}
      className={cn(
        'group/tabs flex gap-x-1 gap-y-2 border-b border-ink-700 sm:flex-wrap',
        phone === 'scroll'
          ? cn(
              'max-sm:overflow-x-auto max-sm:overflow-y-hidden max-sm:border-b-0',
              'max-sm:shadow-[inset_0_-1px_0_var(--color-ink-700)] max-sm:[scrollbar-width:none]',
            )
          : 'max-sm:grid max-sm:gap-2 max-sm:border-b-0',
        className,
      )}
      {...rest}
    />
  );
}

function assignRef<T>(ref: Ref<T> | undefined, value: T | null): void {
  if (typeof ref === 'function') ref(value);
  else if (ref) ref.current = value;
}

export function TabsTrigger({ className, ...rest }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cn(
        '-mb-px inline-flex min-h-11 shrink-0 items-center gap-2 rounded-t-md border border-transparent px-3 py-2 max-sm:mb-0',
        'font-mono text-sm text-muted transition-colors duration-150 hover:text-fg',
        'data-[state=active]:border-ink-700 data-[state=active]:border-b-ink-900',
        'data-[state=active]:bg-ink-900 data-[state=active]:text-term-green',
        'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-term-cyan',
        'disabled:pointer-events-none disabled:opacity-50',
        // In a phone grid (TabsList phone="grid") each tab is a whole button, the selected one green.
        'max-sm:group-data-[phone=grid]/tabs:justify-center max-sm:group-data-[phone=grid]/tabs:rounded-md',
        'max-sm:group-data-[phone=grid]/tabs:border-ink-700 max-sm:group-data-[phone=grid]/tabs:px-1',
        'max-sm:group-data-[phone=grid]/tabs:data-[state=active]:border-term-green/60',
        className,
      )}
      {...rest}
    />
  );
}

export function TabsContent({ className, ...rest }: ComponentProps<typeof TabsPrimitive.Content>) {
  return (
    <TabsPrimitive.Content
      className={cn(
        'pt-5 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-term-cyan',
        className,
      )}
      {...rest}
    />
  );
}
