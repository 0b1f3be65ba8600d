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
  /** `en`, `de` or `ar` (right to left); others fall back to English. */
  locale?: string;
  /** ISO 4217 code of the player's money (the session's currency). */
  currency?: string;
  /** D50 odds format; default `decimal`. Any case; the vendor's names too (`'Decimal'`, `'Hong Kong'`, …). */
  oddsFormat?: OddsFormat | (string & {});
  palette?: Palette;
  /** Bookie's base URL; default: the origin the bootstrap script came from. */
  apiUrl?: string;
  /** Called when the token is refused (expired, ended); resolves to a new token. Without it: `login_required`. */
  onTokenExpired?: () => Promise<string>;
  /**
   * Where the frame opens (a deep link): `/upcoming`, `/live`, `/history`, `/event/{sport event id}`,
   * `{/upcoming|/live}/sport/{sport id}[/{tournament id}]` or `{/upcoming|/live}/search/{text}`.
   */
  route?: string;
  /** Quick bet on: one tap on a price places a single at this stake (a decimal string) after a confirmation. */
  quickBet?: string;
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
  /**
   * One of the six odds formats, in any case; the vendor's names too (`'Decimal'`, `'Fractional'`, `'American'`,
   * `'HongKong'` or `'Hong Kong'`, `'Malay'`, `'Indonesian'`).
   *
   * @throws RangeError naming the value, for any other name (the prices stay as they were).
   */
  selectOddFormat(format: OddsFormat | (string & {})): void;
  /**
   * Opens a place of the frame (see {@link FrameOptions.route} for the paths); `route_changed` reports every move
   * with its `path`, which a host can keep in its own URL and give back here.
   *
   * @throws RangeError naming the path when it is not one of the frame's.
   */
  navigate(path: string): void;
  /** Switches quick bet on with the stake one tap places (a decimal string), or off with `undefined`. */
  setQuickBet(stake: string | undefined): void;
  /** Returns the unsubscribe. */
  subscribe(event: FrameEventName, handler: (payload: unknown) => void): () => void;
  /** Stops the stream and timers and removes everything the frame added to the page. */
  destroy(): void;
}

/**
 * Options of `window.bettingLoader.load` as the other vendor's host pages give them (docs/adr/0031-vendor-host-page.md).
 * `url` is Bookie's address: a string, or the vendor's object, of which only `gqlEndpoint` is read (its origin when it
 * is absolute, else the bootstrap script's origin). Other keys of the vendor (`isAuthorized`, `sportIds`,
 * `features`, …) are accepted and ignored.
 */
export interface VendorOptions {
  token: string;
  /** An element or its id; the id may name an element the page has not parsed yet. */
  rootElement: HTMLElement | string;
  locale?: string;
  currency?: string;
  url?: string | { gqlEndpoint?: string; bettingPath?: string; pagePath?: string; staticEndpoint?: string };
  oddsFormat?: string;
  palette?: Record<string, string>;
  [k: string]: unknown;
}

/** The vendor's palette keys; the frame's own {@link Palette} keys are accepted too. */
export interface VendorPalette {
  /** → `background` */
  primaryColor?: string;
  /** → `text` */
  primaryText?: string;
  /** → `accent` */
  primaryAccent?: string;
  /** → `surface` */
  secondaryColor?: string;
  /** → `muted` */
  secondaryText?: string;
}

/** What `subscribe('redirect', fn)` passes: where the host should send the player (`login`: log in again). */
export interface VendorRedirect {
  destination: 'login';
  link: string | null;
}

/** The API a vendor page's callback receives. Settings made before `init()` apply when the frame mounts. */
export interface VendorBettingApi {
  /** `getBanners(locale)` resolves to the host's banners (`{id?, image_url|image, link_url|link|url, title?}`). */
  registerCallbacks(callbacks: { getBanners?: (locale: string) => unknown }): void;
  /** @throws RangeError for an unknown name (see {@link FrameApi.selectOddFormat}). */
  selectOddFormat(name: string): void;
  /**
   * `redirect` (fired with {@link VendorRedirect} when the session ended and no new token came, i.e. on
   * `login_required`), or one of {@link FrameEventName}. Returns the unsubscribe.
   */
  subscribe(event: 'redirect', handler: (redirect: VendorRedirect) => void): () => void;
  subscribe(event: FrameEventName | (string & {}), handler: (payload: unknown) => void): () => void;
  /**
   * Opens a place of the frame (a deep link, see {@link FrameOptions.route}); before `init()` it is where the frame
   * opens. `route_changed` gives the path of every move.
   */
  navigate(path: string): void;
  /** Mounts the frame once; resolves when its first loads are done (later calls: the same promise). */
  init(): Promise<void>;
  updatePalette(palette: VendorPalette & Palette): void;
  updateBettingOptions(options: { token?: string; locale?: string; currency?: string }): Promise<void>;
  destroy(): void;
}

/** The vendor's load callback: the API, or `null` and the error (e.g. this site's origin is not allowed). */
export type VendorLoadCallback = (api: VendorBettingApi | null, error?: unknown) => void;
