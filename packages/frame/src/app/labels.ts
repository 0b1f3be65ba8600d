import type { Market, SportEvent } from '@bookie/contracts';

/** Fills a feed template (`{$competitor1}`, `{total}`, `{-hcp}`) from the event's competitors and market specifiers. */
export function fill(template: string, event: SportEvent, market?: Market): string {
  const byPosition = new Map(
    Object.values(event.fixture.competitors).map((c) => [c.template_position, c.name]),
  );
  return template.replace(/\{(-?)(\$?)(\w+)\}/g, (m, minus: string, dollar: string, name: string) => {
    if (dollar) {
      const pos = /^competitor(\d+)$/.exec(name);
      return pos ? (byPosition.get(Number(pos[1])) ?? m) : m;
    }
    const v = market?.specifiers[name];
    if (v === undefined) return m;
    if (!minus) return v;
    return v.startsWith('-') ? v.slice(1) : v === '0' ? v : `-${v}`;
  });
}

/** The event's name: its template filled with its competitors. */
export function eventName(e: SportEvent): string {
  return fill(e.fixture.template, e);
}
