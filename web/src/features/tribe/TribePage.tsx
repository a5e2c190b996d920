import { Card } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';

const steps = [
  { n: '01', title: 'Find your tribe', text: 'Join a small cohort of builders at your level.' },
  { n: '02', title: 'Meet and build together', text: 'Bi-weekly two-hour live sessions.' },
  { n: '03', title: 'Ship and iterate', text: 'Take agents from idea to production.' },
] as const;

export function TribePage() {
  return (
    <Page title="The Tribe">
      <PageHeader
        command="join --tribe"
        title="The Tribe"
        lead="A paid community for people building agentic AI: small cohorts, bi-weekly live sessions led by rUv, and real projects shipped together. $250 per month, cancel anytime."
      />
      <ol className="mt-12 grid gap-4 md:grid-cols-3">
        {steps.map((step) => (
          <li key={step.n}>
            <Card className="h-full">
              <p className="font-mono text-sm text-term-green">{step.n}</p>
              <h2 className="mt-2 text-lg font-semibold text-fg">{step.title}</h2>
              <p className="mt-1 text-sm text-muted">{step.text}</p>
            </Card>
          </li>
        ))}
      </ol>
    </Page>
  );
}
