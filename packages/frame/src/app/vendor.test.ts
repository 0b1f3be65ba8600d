import { describe, expect, it } from 'vitest';
import { apiBaseOf, bannersOf, optionsOf, paletteOf, vendorApi } from './vendor.js';

const SCRIPT = 'https://bookie.example';
const PAGE = 'https://casino.example/sports/';

describe("the vendor's url option", () => {
  it.each([
    [undefined, SCRIPT],
    ['', SCRIPT],
    ['https://api.bookie.example/', 'https://api.bookie.example'],
    ['https://api.bookie.example/base', 'https://api.bookie.example/base'],
    [{ gqlEndpoint: 'https://gql.bookie.example/graphql', bettingPath: '/' }, 'https://gql.bookie.example'],
    [{ gqlEndpoint: '//gql.bookie.example/graphql', pagePath: '' }, 'https://gql.bookie.example'],
    [{ gqlEndpoint: '/graphql', staticEndpoint: '//cdn.example' }, SCRIPT],
    [{ bettingPath: '/', pagePath: '', staticEndpoint: '//stg.example' }, SCRIPT],
    [{}, SCRIPT],
  ])('%j → %s', (url, base) => {
    expect(apiBaseOf(url, SCRIPT, PAGE)).toBe(base);
  });

  it('names the field of a value that is not a URL', () => {
    expect(() => apiBaseOf({ gqlEndpoint: '//<PUT ADDRESS HERE>' }, SCRIPT, PAGE)).toThrow(
      /url\.gqlEndpoint/,
    );
    expect(() => apiBaseOf(42, SCRIPT, PAGE)).toThrow(/url must be a string or an object/);
  });
});

describe('the vendor options', () => {
  it("keeps what Bookie uses and drops the vendor's other keys without failing", () => {
    const o = optionsOf(
      {
        token: 'tok',
        isAuthorized: false,
        url: { gqlEndpoint: '//gql.example', bettingPath: '/', pagePath: '', staticEndpoint: '//s.example' },
        locale: 'en',
        currency: 'EUR',
        rootElement: 'betting__container',
        sportIds: ['football'],
        features: { 'main.HideNavigation': false },
      },
      SCRIPT,
      PAGE,
    );
    expect(o).toEqual({
      token: 'tok',
      rootElement: 'betting__container',
      locale: 'en',
      currency: 'EUR',
      apiUrl: 'https://gql.example',
    });
  });
});

describe("the vendor's palette", () => {
  it("maps the vendor's keys to the frame's and keeps the frame's own", () => {
    expect(
      paletteOf({
        primaryColor: '#060c1f',
        primaryText: '#ffffff',
        primaryAccent: '#00bf9e',
        secondaryColor: '#141c33',
        secondaryText: '#a4a4a4',
        accentText: '#000',
        tertiaryGlow: '#fff',
        negative: 7,
      }),
    ).toEqual({
      background: '#060c1f',
      text: '#ffffff',
      accent: '#00bf9e',
      surface: '#141c33',
      muted: '#a4a4a4',
      accentText: '#000',
    });
    expect(paletteOf(null)).toEqual({});
  });
});

describe("the host's banners", () => {
  it('takes common shapes and leaves out entries without an image', () => {
    expect(
      bannersOf([
        { id: 'a', image_url: 'https://x/a.png', link_url: 'https://x/a', title: 'A' },
        { image: 'https://x/b.png', link: 'https://x/b' },
        { title: 'no image' },
        null,
      ]),
    ).toEqual([
      { id: 'a', image_url: 'https://x/a.png', link_url: 'https://x/a', title: 'A' },
      { id: '1', image_url: 'https://x/b.png', link_url: 'https://x/b', title: '' },
    ]);
    expect(bannersOf(undefined)).toEqual([]);
  });
});

describe('the vendor API before init()', () => {
  const fresh = () => ({ token: 't', rootElement: 'x', apiUrl: SCRIPT }) as Parameters<typeof vendorApi>[0];

  it('keeps the odds format, the palette and the banner source for the mount', async () => {
    const options = fresh();
    const api = vendorApi(options);
    api.selectOddFormat('Decimal');
    api.updatePalette({ primaryColor: '#060c1f', primaryAccent: '#00bf9e' });
    api.registerCallbacks({ getBanners: () => Promise.resolve([{ image: 'https://x/b.png' }]) });
    expect(options.oddsFormat).toBe('decimal');
    expect(options.palette).toEqual({ background: '#060c1f', accent: '#00bf9e' });
    expect(await options.getBanners?.({ locale: 'en', placement: 'top' })).toEqual([
      { id: '0', image_url: 'https://x/b.png', link_url: '', title: '' },
    ]);
  });

  it('refuses an unknown odds format with a clear error and keeps the one it had', () => {
    const options = fresh();
    const api = vendorApi(options);
    api.selectOddFormat('HongKong');
    expect(() => api.selectOddFormat('Roman')).toThrow(/unknown odds format "Roman"/);
    expect(options.oddsFormat).toBe('hongkong');
  });

  it('accepts subscriptions to redirect and to its own events; an unknown event is a no-op', () => {
    const api = vendorApi(fresh());
    expect(typeof api.subscribe('redirect', () => {})).toBe('function');
    expect(typeof api.subscribe('bet_placed', () => {})).toBe('function');
    expect(typeof api.subscribe('somethingElse', () => {})).toBe('function');
    expect(() => api.subscribe('redirect', 'nope' as never)).toThrow(TypeError);
  });
});
