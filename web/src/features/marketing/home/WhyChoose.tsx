import { ShieldCheck } from 'lucide-react';
import { Section } from '@/components/ui/section';

const whyChoose = [
  'Three decades in enterprise technology, from cloud computing to enterprise AI platforms',
  'Author of widely used open-source agent frameworks, so advice comes from code that runs',
  'Hands-on sessions: we look at your repository and design, not at slides',
  'Straight answers on what agents can and cannot do for your case today',
] as const;

/** Why work with rUv, in four points. */
export function WhyChoose() {
  return (
    <Section id="why-choose" eyebrow="why" title="Why work with rUv">
      <ul className="mt-6 grid gap-3 sm:grid-cols-2">
        {whyChoose.map((point) => (
          <li
            key={point}
            className="flex gap-3 rounded-lg border border-ink-700 bg-ink-850/60 p-4 text-sm text-fg"
          >
            <ShieldCheck size={18} aria-hidden="true" className="shrink-0 text-term-green" />
            {point}
          </li>
        ))}
      </ul>
    </Section>
  );
}
