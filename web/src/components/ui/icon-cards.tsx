import type { LucideIcon } from 'lucide-react';
import { cn } from '@/lib/cn';
import { Card } from './card';

export interface IconCard {
  icon: LucideIcon;
  title: string;
  text: string;
}

/** Small cards of an icon, a title and a sentence, in a grid that is one column on phones. */
export function IconCards({
  items,
  className,
  iconClassName,
}: {
  items: readonly IconCard[];
  /** Grid columns from `sm` up, e.g. `sm:grid-cols-2 lg:grid-cols-4`. */
  className: string;
  iconClassName: string;
}) {
  return (
    <ul className={cn('mt-6 grid gap-4', className)}>
      {items.map(({ icon: Icon, title, text }) => (
        <li key={title}>
          <Card className="h-full">
            <Icon size={20} aria-hidden="true" className={iconClassName} />
            <h3 className="mt-3 font-semibold text-fg">{title}</h3>
            <p className="mt-2 text-sm text-muted">{text}</p>
          </Card>
        </li>
      ))}
    </ul>
  );
}
