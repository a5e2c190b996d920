import type { ReactNode } from 'react';
import { usePageTitle } from '@/lib/page-title';
import { Container } from './container';

export interface PageProps {
  /** Document title, shown as "<title> | rUv". */
  title: string;
  children: ReactNode;
}

/** Wraps a page's content in the standard column and sets its document title. */
export function Page({ title, children }: PageProps) {
  usePageTitle(title);
  return <Container className="flex-1 py-12 sm:py-16 lg:py-20">{children}</Container>;
}
