/**
 * The names of the optional callbacks alone, without their schemas: a module with no imports, for what must load
 * fast (the `bookie` command line's help). The rules about them are in optional-callbacks.ts.
 *
 * @packageDocumentation
 */

/**
 * The optional callbacks, by capability name:
 * - `heartbeat`: `POST /heartbeat` while a player's frame session is active;
 * - `banners`: `POST /banners` for the frame's banners;
 * - `cash_out`: `/bet/cash-out-orders/accepted` and `/declined` (the platform's cash-out pays through them);
 * - `insurance`: `/bet/insurances/accepted` and `/bet/insurances/decline` (bet insurance pays through them);
 * - `insurance_cancel`: `/bet/insurances/cancel` (takes back a paid refund when its bet is unsettled).
 */
export const OPTIONAL_CALLBACKS = [
  'heartbeat',
  'banners',
  'cash_out',
  'insurance',
  'insurance_cancel',
] as const;

/** A capability name: one of {@link OPTIONAL_CALLBACKS}. */
export type OptionalCallback = (typeof OPTIONAL_CALLBACKS)[number];
