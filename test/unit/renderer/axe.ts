// axe-core over a component test's render: the accessibility rules the journeys check in Chromium
// (@axe-core/playwright runs the same engine), here on each main component alone, in both languages.
import axe from 'axe-core';

/**
 * What axe finds wrong in `root` as rendered now (default: the body a component renders into; the whole document for
 * the App, which gives the page its title and language), one line each: rule, impact, help, the elements. Off: the
 * rules that need a laid-out page happy-dom does not make (colour contrast), and those about a whole page (landmarks,
 * a level-one heading) that a component rendered alone cannot hold; the journeys check those in Chromium.
 */
export async function axeProblems(root: Element | Document = document.body): Promise<string[]> {
  const r = await axe.run(root, {
    resultTypes: ['violations'],
    rules: {
      'color-contrast': { enabled: false },
      region: { enabled: false },
      'landmark-one-main': { enabled: false },
      'page-has-heading-one': { enabled: false },
    },
  });
  return r.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}
