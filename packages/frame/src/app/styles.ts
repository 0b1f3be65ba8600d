import type { Palette } from '../types.js';

const DEFAULTS: Required<Palette> = {
  background: '#0f1720',
  surface: '#1b2633',
  text: '#e8eef5',
  muted: '#8da2b8',
  accent: '#f5b301',
  accentText: '#111',
  positive: '#2fbf71',
  negative: '#e5484d',
};

/** The palette as CSS custom properties on the frame's root. */
export function paletteVars(p: Palette): string {
  return Object.entries({ ...DEFAULTS, ...p })
    .map(([k, v]) => `--bk-${k}:${String(v).replace(/[;{}<>]/g, '')}`)
    .join(';');
}

/** The frame's only style sheet: inside the shadow root, so the host's CSS neither reaches in nor leaks out. */
export const CSS = `
:host{all:initial;display:block}
*{box-sizing:border-box}
.bk{font:14px/1.4 system-ui,sans-serif;color:var(--bk-text);background:var(--bk-background);padding:8px;border-radius:8px;min-height:200px}
.bk button,.bk select,.bk input{font:inherit;color:inherit}
.bar{display:flex;gap:6px;align-items:center;flex-wrap:wrap;margin-bottom:8px}
.tab{background:var(--bk-surface);border:0;border-radius:6px;padding:6px 10px;cursor:pointer}
.tab[aria-selected=true],.tab[aria-pressed=true]{background:var(--bk-accent);color:var(--bk-accent-text)}
.grow{flex:1}
select,input{background:var(--bk-surface);border:1px solid var(--bk-muted);border-radius:6px;padding:5px 6px}
.main{display:grid;grid-template-columns:minmax(0,1fr);gap:8px}
@media (min-width:760px){.main{grid-template-columns:minmax(0,1fr) 300px}}
.card{background:var(--bk-surface);border-radius:8px;padding:8px;margin-bottom:8px}
.tn{color:var(--bk-muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em;margin:10px 0 4px}
.ev h3{font-size:14px;margin:0 0 4px;display:flex;gap:6px;align-items:center}
.time{color:var(--bk-muted);font-size:12px;font-weight:400}
.live{background:var(--bk-negative);color:#fff;border-radius:4px;padding:0 4px;font-size:11px}
.mk{display:flex;gap:4px;align-items:center;margin:3px 0;flex-wrap:wrap}
.mn{color:var(--bk-muted);font-size:12px;min-width:110px}
.odd{flex:1 1 0;min-width:0;display:flex;justify-content:space-between;gap:6px;background:var(--bk-background);border:1px solid transparent;border-radius:6px;padding:4px 6px;cursor:pointer}
.odd span{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.odd b{font-variant-numeric:tabular-nums;flex:none}
@media (max-width:560px){.mn{flex-basis:100%}.mk{margin-bottom:6px}}
.odd[aria-pressed=true]{border-color:var(--bk-accent)}
.odd:disabled{opacity:.45;cursor:not-allowed}
.up b{color:var(--bk-positive)}.down b{color:var(--bk-negative)}
.slip h2{font-size:15px;margin:0 0 6px}
.sel{display:flex;justify-content:space-between;gap:6px;border-bottom:1px solid var(--bk-background);padding:4px 0;font-size:13px}
.x{background:none;border:0;color:var(--bk-muted);cursor:pointer}
.row{display:flex;justify-content:space-between;gap:6px;margin:6px 0;align-items:center}
.row input,.row select{max-width:60%}
.place{width:100%;background:var(--bk-accent);color:var(--bk-accent-text);border:0;border-radius:6px;padding:8px;font-weight:600;cursor:pointer}
.place:disabled{opacity:.5}
.ok{color:var(--bk-positive)}.no{color:var(--bk-negative)}
.msg{padding:6px;border-radius:6px;background:var(--bk-background);margin-top:6px;font-size:13px}
.muted{color:var(--bk-muted)}
.banner{display:block;margin-bottom:8px}
.banner img{max-width:100%;height:auto;border-radius:6px;display:block}
.hb{display:grid;grid-template-columns:1fr auto;gap:2px 8px;font-size:13px}
.sh{font-size:15px;margin:4px 0 8px;display:flex;gap:6px;align-items:center}
.count{background:var(--bk-accent);color:var(--bk-accent-text);border-radius:9px;padding:0 7px;font-size:12px}
.bt{text-transform:capitalize}
.ob .hb{margin:6px 0}
.co-row{display:flex;gap:6px;align-items:stretch}
.co{flex:1;background:var(--bk-positive);color:#fff;border:0;border-radius:6px;padding:9px 10px;font-weight:700;cursor:pointer;font-variant-numeric:tabular-nums}
.co:disabled{background:var(--bk-background);color:var(--bk-muted);cursor:not-allowed}
.co:focus-visible,.tab:focus-visible,.odd:focus-visible,.place:focus-visible{outline:2px solid var(--bk-accent);outline-offset:2px}
.tab:disabled{opacity:.45;cursor:not-allowed}
.co-why{margin:4px 0 0;font-size:12px}
.co-part{display:grid;grid-template-columns:1fr auto;gap:6px;align-items:center;margin-top:8px;padding:8px;border-radius:6px;background:var(--bk-background);font-size:13px}
.co-part input{grid-column:1/-1;width:100%;accent-color:var(--bk-positive);padding:0;border:0}
.co-part .co{grid-column:1/-1}
.co-confirm{margin:0;padding:10px;border-radius:6px;background:var(--bk-background);border:0;box-shadow:inset 0 0 0 1px var(--bk-positive);min-width:0}
.co-confirm legend{float:left;width:100%;padding:0;margin:0 0 8px;font-weight:600}
.co-confirm .co-row{clear:both}
.co-msg{display:flex;width:100%;justify-content:space-between;gap:6px;align-items:center}
`;
