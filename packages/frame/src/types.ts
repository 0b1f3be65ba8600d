/**
 * The betting frame's public API (DECISIONS D49): what `window.Bookie.load(options)` takes and resolves to.
 *
 * @packageDocumentation
 */
import type { OddsFormat } from '@bookie/core/odds-format';

export type { OddsFormat };

/** Colours from the host page (CSS colour strings); every one optional. */
export interface Palette {
  background?: string;
  surface?: string;
  text?: string;
  muted?: string;
  accent?: string;
  accentText?: string;
  positive?: string;
  negative?: string;
}

/** A banner of the partner (D48). */
export interface FrameBanner {
  id: string;
  image_url: string;
  link_url: string;
  title: string;
}

/** Options of `window.Bookie.load` (D49). */
export interface FrameOptions {
  /** The player's session token (`POST /token/create`). */
  token: string;
  /** The host's container; the frame renders in a shadow root inside it. An element or its id. */
  rootElement: HTMLElement | string;
  /** `en` or `de` (others fall back to English). */
  locale?: string;
  /** ISO 4217 code of the player's money (the session's currency). */
  currency?: string;
  /** D50 odds format; default `decimal`. */
  oddsFormat?: OddsFormat;
  palette?: Palette;
  /** Bookie's base URL; default: the origin the bootstrap script came from. */
  apiUrl?: string;
  /** Called when the token is refused (expired, ended); resolves to a new token. Without it: `login_required`. */
  onTokenExpired?: () => Promise<string>;
  /** Banners from the host instead of the partner's callback (D48). */
  getBanners?: (input: { locale: string; placement: string }) => Promise<FrameBanner[]>;
}

/** Events a host can subscribe to (D49). */
export type FrameEventName =
  | 'bet_placed'
  | 'bet_settled'
  | 'login_required'
  | 'balance_changed'
  | 'route_changed';

/** The handle `window.Bookie.load` resolves to (D49). */
export interface FrameApi {
  /** Switches token, locale or currency without a reload; the bet slip is kept. */
  updateBettingOptions(options: { token?: string; locale?: string; currency?: string }): Promise<void>;
  updatePalette(palette: Palette): void;
  selectOddFormat(format: OddsFormat): void;
  /** Returns the unsubscribe. */
  subscribe(event: FrameEventName, handler: (payload: unknown) => void): () => void;
  /** Stops the stream and timers and removes everything the frame added to the page. */
  destroy(): void;
}
