import type { Palette } from '../types.js';

const DEFAULTS: Required<Palette> = {
  background: '#0f1720',
  surface: '#1b2633',
  text: '#e8eef5',
  muted: '#8da2b8',
  accent: '#f5b301',
  accentText: '#111',
  positive: '#3ccf7f',
  negative: '#ff6b6b',
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
.bk{font:14px/1.4 system-ui,sans-serif;color:var(--bk-text);background:var(--bk-background);padding:8px;border-radius:8px;min-height:200px;overflow-wrap:anywhere}
.bk button,.bk select,.bk input{font:inherit;color:inherit}
.plain{border:0;padding:0;margin-inline:0;min-width:0}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.bar{display:flex;gap:6px;align-items:center;flex-wrap:wrap;margin-bottom:8px}
.tabs{display:flex;gap:6px;flex-wrap:wrap}
.tab,.chip,.back,.more,.evlink{background:var(--bk-surface);border:1px solid transparent;border-radius:6px;padding:6px 10px;cursor:pointer;min-height:36px}
.tab[aria-pressed=true],.chip[aria-pressed=true]{background:var(--bk-accent);color:var(--bk-accentText)}
.grow{flex:1}
select,input{background:var(--bk-surface);border:1px solid var(--bk-muted);border-radius:6px;padding:5px 6px;min-height:36px}
.main{display:grid;grid-template-columns:minmax(0,1fr);gap:8px}
.content{min-width:0}
@media (min-width:760px){.main{grid-template-columns:minmax(0,1fr) 320px}.slip{position:sticky;top:8px;align-self:start;max-height:calc(100vh - 16px);overflow:auto}}
.card{background:var(--bk-surface);border-radius:8px;padding:8px;margin-bottom:8px}
.search input{width:100%;margin-bottom:6px}
.chips,.tours,.presets{display:flex;gap:6px;flex-wrap:wrap;margin:0 0 6px}
.chip{background:var(--bk-surface);border-color:var(--bk-muted)}
.n{font-size:12px}
.country{display:flex;gap:6px;flex-wrap:wrap;align-items:center;width:100%}
.cn{color:var(--bk-muted);font-size:12px;min-width:90px}
.tn{color:var(--bk-muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em;margin:10px 0 4px;font-weight:600}
.ev h3,.head h2{font-size:14px;margin:0 0 4px;display:flex;gap:6px;align-items:center;flex-wrap:wrap}
.head h2{font-size:18px}
.evlink{background:none;border:0;padding:2px 0;font-weight:700;text-align:start;text-decoration:underline;text-decoration-color:var(--bk-muted);text-underline-offset:3px}
.more{background:none;border:0;color:var(--bk-text);text-decoration:underline;padding:4px 0}
.back{margin-bottom:8px}
.time{color:var(--bk-muted);font-size:12px;font-weight:400}
.livebox{display:inline-flex;gap:6px;align-items:center;flex-wrap:wrap}
.live{background:#b3261e;color:#fff;border-radius:4px;padding:0 5px;font-size:11px;font-weight:700}
.score{font-variant-numeric:tabular-nums;font-size:15px}
.clock{color:var(--bk-muted);font-size:12px}
.stop,.why{font-size:12px;color:var(--bk-text);background:var(--bk-background);border:1px dashed var(--bk-muted);border-radius:4px;padding:0 5px}
.mk{display:flex;gap:4px;align-items:center;margin:3px 0;flex-wrap:wrap}
.mk.off .mn{text-decoration:none}
.mk.off .odd{filter:grayscale(1)}
.mn{color:var(--bk-muted);font-size:12px;min-width:120px}
.odd{flex:1 1 0;min-width:0;display:flex;justify-content:space-between;gap:6px;background:var(--bk-background);border:1px solid var(--bk-muted);border-radius:6px;padding:4px 6px;cursor:pointer;min-height:36px;align-items:center}
.odd span.on{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.odd b{font-variant-numeric:tabular-nums;flex:none}
.odd[aria-pressed=true]{border-color:var(--bk-accent);box-shadow:inset 0 0 0 1px var(--bk-accent)}
.odd:disabled{opacity:.6;cursor:not-allowed;border-style:dashed}
.arrow{font-size:10px;margin-inline-end:3px;animation:bk-fade 4s forwards}
.arrow{border-radius:3px;padding:0 2px;color:#000}.arrow.up{background:var(--bk-positive)}.arrow.down{background:var(--bk-negative)}
@keyframes bk-fade{0%{opacity:1}70%{opacity:1}100%{opacity:0}}
@media (prefers-reduced-motion:reduce){.arrow{animation:none}}
.grp summary{cursor:pointer;list-style:none;min-height:36px;display:flex;align-items:center}
.grp summary::before{content:'▸';margin-inline-end:6px}
.grp[open] summary::before{content:'▾'}
.grp summary h3{font-size:14px;margin:0}
.slip h2{font-size:15px;margin:0 0 6px}
.sheet-toggle{display:none}
.sel{display:flex;justify-content:space-between;gap:6px;border-bottom:1px solid var(--bk-background);padding:4px 0;font-size:13px}
.sel b{white-space:nowrap}
.legs{margin:2px 0 0;padding-inline-start:16px}
.was{color:var(--bk-muted)}
.chg{color:var(--bk-text);font-size:12px;font-weight:600}
.x{background:none;border:0;color:var(--bk-text);cursor:pointer;min-width:32px;min-height:32px}
.row{display:flex;justify-content:space-between;gap:6px;margin:6px 0;align-items:center}
.row input,.row select{max-width:60%}
.sizes{border:0;padding:0;flex-wrap:wrap}
.sizes legend{float:inline-start;margin-inline-end:8px}
.chk{display:inline-flex;gap:4px;align-items:center;min-height:36px;margin-inline-end:8px}
.figs{display:grid;grid-template-columns:1fr auto;gap:2px 8px;margin:6px 0;font-size:13px}
.figs dt{color:var(--bk-muted)}.figs dd{margin:0;text-align:end;font-weight:600;font-variant-numeric:tabular-nums}
.figs .id{font-family:ui-monospace,monospace;font-size:11px;font-weight:400}
.bk .place{width:100%;background:var(--bk-accent);color:var(--bk-accentText);border:0;border-radius:6px;padding:8px;font-weight:700;cursor:pointer;min-height:44px}
.place:disabled{opacity:.55;cursor:not-allowed}
.sel .up,.sel .down{font-weight:800;text-decoration:underline;text-decoration-thickness:2px}.sel .up{text-decoration-color:var(--bk-positive)}.sel .down{text-decoration-color:var(--bk-negative)}
.ok{color:var(--bk-positive)}.no{color:var(--bk-negative)}
.msg{padding:6px;border-radius:6px;background:var(--bk-background);margin:6px 0;font-size:13px}
.receipt{background:var(--bk-background);border-radius:6px;padding:8px;margin-top:8px;border-inline-start:4px solid var(--bk-positive)}
.receipt.no{border-inline-start-color:var(--bk-negative);color:var(--bk-text)}
.receipt h3{margin:0 0 6px;font-size:15px;color:var(--bk-text)}
.legs{list-style:none;padding:0;margin:0}
.legs li{display:flex;justify-content:space-between;gap:6px;padding:4px 0;border-bottom:1px solid var(--bk-surface);font-size:13px}
.muted{color:var(--bk-muted)}
.banner{display:block;margin-bottom:8px}
.banner img{max-width:100%;height:auto;border-radius:6px;display:block}
.hb{display:grid;grid-template-columns:1fr auto;gap:2px 8px;font-size:13px}
.sh{font-size:15px;margin:4px 0 8px;display:flex;gap:6px;align-items:center}
.count{background:var(--bk-accent);color:var(--bk-accentText);border-radius:9px;padding:0 7px;font-size:12px}
.bt{text-transform:capitalize}
.hist{border-inline-start:4px solid var(--bk-muted)}
.hist.won{border-inline-start-color:var(--bk-positive)}.hist.lost{border-inline-start-color:var(--bk-negative)}
.hist.cashed{border-inline-start-color:#3b82f6}.hist.refunded{border-inline-start-color:#a3a3a3}
.badge{border-radius:10px;padding:1px 8px;font-size:12px;font-weight:700;background:var(--bk-background)}
.badge.won{background:#1e7a46;color:#fff}.badge.lost{background:#b3261e;color:#fff}
.badge.cashed{background:#1d4ed8;color:#fff}.badge.refunded{background:#525252;color:#fff}
.badge.declined{background:var(--bk-background);color:var(--bk-text);border:1px solid var(--bk-negative)}
.ob .hb{margin:6px 0}
.co-row{display:flex;gap:6px;align-items:stretch}
.bk .co{flex:1;background:#1e7a46;color:#fff;border:0;border-radius:6px;padding:9px 10px;font-weight:700;cursor:pointer;font-variant-numeric:tabular-nums;min-height:44px}
.bk .co:disabled{background:var(--bk-background);color:var(--bk-muted);cursor:not-allowed}
.bk :focus-visible{outline:2px solid var(--bk-accent);outline-offset:2px}
.tab:disabled{opacity:.45;cursor:not-allowed}
.co-why{margin:4px 0 0;font-size:12px}
.co-part{display:grid;grid-template-columns:1fr auto;gap:6px;align-items:center;margin-top:8px;padding:8px;border-radius:6px;background:var(--bk-background);font-size:13px}
.co-part input{grid-column:1/-1;width:100%;accent-color:var(--bk-positive);padding:0;border:0}
.co-part .co{grid-column:1/-1}
.co-confirm{margin:0;padding:10px;border-radius:6px;background:var(--bk-background);border:0;box-shadow:inset 0 0 0 1px var(--bk-positive);min-width:0}
.co-confirm legend{float:left;width:100%;padding:0;margin:0 0 8px;font-weight:600}
.co-confirm .co-row{clear:both}
.co-msg{display:flex;width:100%;justify-content:space-between;gap:6px;align-items:center}
.overlay{position:fixed;inset:0;background:rgba(0,0,0,.5);display:flex;align-items:center;justify-content:center;z-index:20;padding:12px}
.dialog{max-width:420px;width:100%}
@media (max-width:560px){
  .mn{flex-basis:100%}.mk{margin-bottom:6px}
  .tab,.chip,.back,.more,.odd,.x,select,input,.chk,.grp summary,.evlink{min-height:44px}
  .x{min-width:44px}
  .main{padding-bottom:64px}
  .slip{position:fixed;inset-inline:0;bottom:0;margin:0;border-radius:12px 12px 0 0;z-index:10;max-height:80vh;overflow:auto;box-shadow:0 -4px 16px rgba(0,0,0,.35);padding:0 8px 8px}
  .sheet-toggle{display:flex;width:100%;justify-content:space-between;gap:8px;align-items:center;background:var(--bk-surface);border:0;min-height:48px;font-weight:700;cursor:pointer;position:sticky;top:0}
  .slip:not(.open) .sheet-body{display:none}
}
`;
