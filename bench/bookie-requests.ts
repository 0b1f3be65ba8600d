/**
 * Requests the placement benches send to a Bookie process, written once: the operator's set-up (a liability limit
 * every outcome stays under) and the frame's placement of a single.
 */
import { TEST_ADMIN_TOKEN } from '../packages/server/src/testing/partner.js';
import type { LoadRequest } from './load.js';

/** The operator's headers (the test admin token). */
export const ADMIN_HEADERS = {
  authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
  'content-type': 'application/json',
};

/**
 * Sets a white label's liability limit, live and prematch, on every market type, so high that every outcome stays
 * under it: the risk engine does its whole work per bet without ever refusing one.
 */
export async function setUnreachableLiabilityLimit(bookieUrl: string, whiteLabelId: string): Promise<void> {
  for (const phase of ['live', 'prematch']) {
    const res = await fetch(`${bookieUrl}/admin/risk/limits`, {
      method: 'PUT',
      headers: ADMIN_HEADERS,
      body: JSON.stringify({
        white_label_id: whiteLabelId,
        market_type_id: '*',
        phase,
        liability_eur: '1000000000',
      }),
    });
    if (res.status >= 300)
      throw new Error(`PUT /admin/risk/limits answered ${res.status} ${await res.text()}`);
  }
}

/**
 * The frame's `POST /frame-api/bets` of a single of 1 EUR at 1.5 on one of the event's first 4 markets × 3 odds
 * (spread by `i`), with the player's session token.
 */
export function frameSingle(session: string, sportEventId: string, i: number): LoadRequest {
  return {
    path: '/frame-api/bets',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
    body: JSON.stringify({
      bet_type: 'single',
      stake: '1',
      currency: 'EUR',
      odds_strategy: 3,
      selections: [
        {
          sport_event_id: sportEventId,
          market_id: String(1 + (i % 4)),
          odd_id: String(1 + (i % 3)),
          odds: '1.5',
        },
      ],
    }),
  };
}

/** True when a frame placement's answer is an accepted bet. */
export const frameAccepted = (status: number, body: string): boolean =>
  status === 200 && body.includes('"status":1,');
