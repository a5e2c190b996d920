import { Container } from '@/components/ui/container';
import { homeContent } from '@/content/home-sections';
import { CoachingServices } from './home/CoachingServices';
import { Connect } from './home/Connect';
import { FeaturedProjects } from './home/FeaturedProjects';
import { Insights } from './home/Insights';
import { MoreProjects } from './home/MoreProjects';
import { QuickLinks } from './home/QuickLinks';
import { TribeOfferSection } from './home/TribeOfferSection';
import { WhyChoose } from './home/WhyChoose';

/**
 * Home below the hero: featured projects, project cards, insights, services, the tribe, why
 * choose, connect and (on phones) quick links. A chunk of its own, so the entry chunk stays small
 * and the prerendered HTML hydrates in two shorter tasks instead of one long one.
 */
export function HomeSections() {
  const content = homeContent();
  return (
    <Container className="pb-16 sm:pb-24">
      <FeaturedProjects projects={content.featured} stats={content.stats} />
      <MoreProjects projects={content.projects} />
      <Insights />
      <CoachingServices sessions={content.sessions} currency={content.currency} />
      <TribeOfferSection tribe={content.tribe} />
      <WhyChoose />
      <Connect stats={content.stats} />
      <QuickLinks />
    </Container>
  );
}
