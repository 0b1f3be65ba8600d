/**
 * Names from the feed's templates (spec 02 "Templates"): market and outcome names are sent as templates filled from
 * the sport event's competitors and the market's specifiers.
 *
 * @packageDocumentation
 */

/**
 * Fills a feed template: `{$competitor1}` is the name of the competitor at that template position, `{total}` the
 * market's specifier of that name, `{-hcp}` the specifier negated (`-1.5` → `1.5`, `1.5` → `-1.5`, `0` stays `0`).
 * A placeholder without a value is left as it is.
 *
 * @param competitors competitor names by template position (`{ '1': 'Arsenal', '2': 'Chelsea' }`).
 * @param specifiers the market's specifiers (`{ total: '2.5' }`).
 * @returns the filled text; never throws.
 */
export function fillTemplate(
  template: string,
  competitors: Readonly<Record<string, string>>,
  specifiers: Readonly<Record<string, string>>,
): string {
  return template.replace(/\{(-?)(\$?)(\w+)\}/g, (m, minus: string, dollar: string, name: string) => {
    if (dollar) {
      const pos = /^competitor(\d+)$/.exec(name);
      return pos ? (competitors[pos[1] as string] ?? m) : m;
    }
    const v = specifiers[name];
    if (v === undefined) return m;
    if (!minus) return v;
    return v.startsWith('-') ? v.slice(1) : v === '0' ? v : `-${v}`;
  });
}

/** Competitor names by template position, as {@link fillTemplate} takes them, from a sport event's competitors. */
export function competitorsByPosition(
  competitors: Readonly<Record<string, { template_position: number; name: string }>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of Object.values(competitors)) out[String(c.template_position)] = c.name;
  return out;
}
