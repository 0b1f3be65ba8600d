import { describe, expect, it } from 'vitest';
import { newBetSportEvents } from './bet.js';

describe('newBetSportEvents', () => {
  it('lists each platform sport event once, plain selections then builders, in bet order', () => {
    expect(
      newBetSportEvents({
        selections: [{ sportEventId: 'e2' }, { sportEventId: 'e1' }, { sportEventId: 'e2' }],
        builders: [{ sportEventId: 'e3' }, { sportEventId: 'e1' }],
      }),
    ).toEqual(['e2', 'e1', 'e3']);
  });

  it('leaves out the foreign selections of a mixed combo', () => {
    expect(
      newBetSportEvents({
        selections: [
          { sportEventId: 'x', foreignId: 'partner-1' },
          { sportEventId: 'e1', foreignId: null },
        ],
      }),
    ).toEqual(['e1']);
  });
});
