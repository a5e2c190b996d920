import axe from 'axe-core';

/**
 * axe's findings on `node` for the rules that a DOM without layout can judge (structure and
 * names), each "rule: element". The browser suite runs every rule; these catch the structural
 * ones in the unit tests, next to the component that has them. label-content-name-mismatch is
 * one of axe's experimental rules, so it is asked for by name.
 */
export async function structuralViolations(node: Element): Promise<string[]> {
  const results = await axe.run(node, {
    runOnly: {
      type: 'rule',
      values: [
        'definition-list',
        'dlitem',
        'label-content-name-mismatch',
        'button-name',
        'list',
        'listitem',
      ],
    },
  });
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.html}`));
}
