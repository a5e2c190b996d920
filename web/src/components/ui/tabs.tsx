import * as TabsPrimitive from '@radix-ui/react-tabs';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

/**
 * Tabs in the terminal style, over Radix Tabs: ARIA tablist/tab/tabpanel roles, roving focus,
 * and ArrowLeft/ArrowRight/Home/End move between tabs (selecting the focused one).
 * Panels carry stable ids from React's useId, so the prerendered HTML hydrates cleanly.
 */
export function Tabs({ className, ...rest }: ComponentProps<typeof TabsPrimitive.Root>) {
  return <TabsPrimitive.Root className={cn('w-full', className)} {...rest} />;
}

/** The row of tabs; give it an `aria-label` naming what the tabs choose between. */
export function TabsList({ className, ...rest }: ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      className={cn('flex flex-wrap gap-x-1 gap-y-2 border-b border-ink-700', className)}
      {...rest}
    />
  );
}

export function TabsTrigger({ className, ...rest }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cn(
        '-mb-px inline-flex min-h-11 items-center gap-2 rounded-t-md border border-transparent px-3 py-2',
        'font-mono text-sm text-muted transition-colors duration-150 hover:text-fg',
        'data-[state=active]:border-ink-700 data-[state=active]:border-b-ink-900',
        'data-[state=active]:bg-ink-900 data-[state=active]:text-term-green',
        'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-term-cyan',
        'disabled:pointer-events-none disabled:opacity-50',
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
