import type { Market, SportEvent } from '@bookie/contracts';
import { describe, expect, it } from 'vitest';
import { eventName, fill } from './labels.js';

const event = {
  fixture: {
    template: '{$competitor1} vs {$competitor2}',
    competitors: {
      a: { name: 'Arsenal', template_position: 1 },
      b: { name: 'Chelsea', template_position: 2 },
    },
  },
} as unknown as SportEvent;

describe('feed templates', () => {
  it('fills competitors and specifiers, negating {-x}', () => {
    expect(eventName(event)).toBe('Arsenal vs Chelsea');
    const m = { specifiers: { hcp: '-1.5', total: '2.5' } } as unknown as Market;
    expect(fill('{$competitor2} ({-hcp})', event, m)).toBe('Chelsea (1.5)');
    expect(fill('{$competitor1} ({hcp})', event, m)).toBe('Arsenal (-1.5)');
    expect(fill('over {total}', event, m)).toBe('over 2.5');
    expect(fill('{unknown} {$competitor9}', event, m)).toBe('{unknown} {$competitor9}');
  });
});
