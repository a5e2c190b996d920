/** Attributes for every link that leaves the site: a new tab without a handle on this one. */
export const externalLinkProps = {
  target: '_blank',
  rel: 'noopener noreferrer',
} as const;
