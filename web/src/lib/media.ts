/** Tailwind's `md` breakpoint: below it the navigation collapses into the mobile menu. */
export const MD_QUERY = '(min-width: 768px)';
