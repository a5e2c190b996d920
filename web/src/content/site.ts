/**
 * The content files for the pages other than Home (which reads ./home to stay light). Import this
 * module only from lazily loaded pages, so the files travel in those chunks.
 */
import aboutRaw from '@content/about.json?raw';
import contactRaw from '@content/contact.json?raw';
import projectsRaw from '@content/projects.json?raw';
import servicesRaw from '@content/services.json?raw';
import stackRaw from '@content/stack.json?raw';
import { injectedContent } from './override';
import type { About, Contact, Projects, Services, SiteContent, Stack } from './types';

// Read as text and parsed here: importing the files as JSON modules would make them the same
// modules Home imports parts of (./home), and pull them whole into the entry chunk.
// site.test.ts checks that the parsed files equal the type-checked JSON imports.
const bundled: SiteContent = {
  about: JSON.parse(aboutRaw) as About,
  services: JSON.parse(servicesRaw) as Services,
  projects: JSON.parse(projectsRaw) as Projects,
  stack: JSON.parse(stackRaw) as Stack,
  contact: JSON.parse(contactRaw) as Contact,
};

/** Every content file: the site owner's when the server injected them, the bundled ones otherwise. */
export function siteContent(): SiteContent {
  return injectedContent() ?? bundled;
}

/** The content the site was built with, whatever the server injected. */
export const bundledContent: SiteContent = bundled;
