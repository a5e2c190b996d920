import { Compass, Gauge, Layers, Workflow } from 'lucide-react';
import { IconCards } from '@/components/ui/icon-cards';
import { Section } from '@/components/ui/section';

const insights = [
  {
    icon: Compass,
    title: 'Start with one agent',
    text: 'A single agent with a clear goal, good tools and a test suite beats a swarm built on hope. Add agents when the work demands it.',
  },
  {
    icon: Layers,
    title: 'Memory is the product',
    text: 'What an agent remembers, and how fast it can find it, decides how useful it is. Design memory and retrieval first.',
  },
  {
    icon: Workflow,
    title: 'Tools over prompts',
    text: 'Give models well-described tools through the Model Context Protocol instead of ever-longer prompts. Tools are testable; prose is not.',
  },
  {
    icon: Gauge,
    title: 'Measure, then scale',
    text: 'Track cost, latency and success rate from day one. The numbers tell you when an agent is ready for more autonomy.',
  },
] as const;

/** Four short lessons from building agents. */
export function Insights() {
  return (
    <Section id="insights" eyebrow="insights" title="Notes from building agents">
      <IconCards
        items={insights}
        className="sm:grid-cols-2 lg:grid-cols-4"
        iconClassName="text-term-amber"
      />
    </Section>
  );
}
