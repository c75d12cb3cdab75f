/**
 * The public status page's stylesheet, inlined in the page and allowed by its hash in the CSP
 * (no 'unsafe-inline'): one request, no JavaScript, light and dark from prefers-color-scheme, AA
 * contrast in both. Bars carry their date and percent as visually hidden text (shown on hover);
 * colour is never the only signal.
 */
import { createHash } from 'node:crypto'

export const STATUS_CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--mu:#59636e;--ln:#d1d9e0;--pn:#f6f8fa;--a:#0969da;
--up:#1a7f37;--dn:#cf222e;--dg:#9a6700;--mt:#0969da;--nd:#d1d9e0;--g:#2da44e;--y:#bf8700;--o:#e16f24;--r:#cf222e}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--mu:#9198a1;--ln:#3d444d;--pn:#151b23;
--a:#4493f8;--up:#3fb950;--dn:#ff7b72;--dg:#d29922;--mt:#4493f8;--nd:#3d444d;--g:#3fb950;--y:#d29922;--o:#f0883e;--r:#f85149}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);line-height:1.5;
font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans',sans-serif}
a{color:var(--a)}
:focus-visible{outline:3px solid var(--a);outline-offset:2px}
.w{max-width:56rem;margin:0 auto;padding:1.5rem 1rem}
h1{font-size:1.75rem;margin:0 0 .25rem}
h2{font-size:1.2rem;margin:2rem 0 .75rem}
h3{font-size:1rem;margin:0;overflow-wrap:anywhere}
.d{color:var(--mu);margin:0}
.ov{margin-top:1.5rem;padding:1rem 1.25rem;border:1px solid var(--ln);border-left:.5rem solid var(--st);
border-radius:.5rem;background:var(--pn)}
.ov h2{margin:0}
.ov p{margin:.25rem 0 0;color:var(--mu)}
.s-up,.s-operational{--st:var(--up)}
.s-down,.s-major_outage,.s-partial_outage{--st:var(--dn)}
.s-degraded{--st:var(--dg)}
.s-maintenance{--st:var(--mt)}
.s-paused,.s-pending,.s-unknown{--st:var(--mu)}
ul.m,ul.l{list-style:none;margin:0;padding:0}
ul.m>li{border:1px solid var(--ln);border-radius:.5rem;padding:1rem;margin:0 0 1rem}
.hd{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:baseline;justify-content:space-between}
.st{font-weight:600;color:var(--st)}
.st::before{content:"";display:inline-block;width:.7em;height:.7em;border-radius:50%;background:var(--st);
margin-right:.4em}
.u{margin:.25rem 0 .5rem;color:var(--mu);font-size:.9rem;overflow-wrap:anywhere}
ol.b{display:flex;gap:1px;list-style:none;margin:0;padding:0;height:2rem}
ol.b li{flex:1;position:relative;background:var(--g);border-radius:1px;min-width:1px}
ol.b li.n{background:var(--nd)}ol.b li.y{background:var(--y)}ol.b li.o{background:var(--o)}ol.b li.r{background:var(--r)}
ol.b i,.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
ol.b li:hover i{clip:auto;width:auto;height:auto;bottom:2.3rem;left:50%;transform:translateX(-50%);
padding:.2rem .4rem;background:var(--fg);color:var(--bg);border-radius:.25rem;font-style:normal;font-size:.8rem;z-index:1}
.ax{display:flex;justify-content:space-between;color:var(--mu);font-size:.8rem;margin-top:.25rem}
ul.l li{padding:.5rem 0;border-bottom:1px solid var(--ln)}
.mu{color:var(--mu)}
footer{margin-top:2.5rem;color:var(--mu);font-size:.85rem}
ul.l li.an,ul.l li.inc{border:1px solid var(--ln);border-left:.5rem solid var(--mt);border-radius:.5rem;
background:var(--pn);padding:.75rem 1rem;margin:0 0 .75rem}
ul.l li.inc{border-left-color:var(--dg)}ul.l li.i-major,ul.l li.i-critical{border-left-color:var(--dn)}
ul.l li.i-none{border-left-color:var(--mu)}
.an p,.inc>p{margin:.25rem 0 0}
ul.l h3{margin:0 0 .25rem}
ol.up{list-style:none;margin:.5rem 0 0;padding:0}
ol.up li{padding:.5rem 0;border-top:1px solid var(--ln)}
ol.up p{margin:.25rem 0 0;overflow-wrap:anywhere}
details{margin-top:.25rem}summary{cursor:pointer;color:var(--a)}
form.sb{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:.5rem 0 1rem}
form.sb label{display:flex;flex-direction:column;gap:.25rem;flex:1 1 14rem}
form.sb input{font:inherit;padding:.4rem .5rem;border:1px solid var(--mu);border-radius:.25rem;background:var(--bg);
color:var(--fg)}
button{font:inherit;padding:.45rem .9rem;border:1px solid var(--a);border-radius:.25rem;background:var(--a);
color:var(--bg);cursor:pointer}
`.replace(/\n/g, '')

export const STATUS_CSS_HASH = `'sha256-${createHash('sha256').update(STATUS_CSS).digest('base64')}'`

/** A strict policy: no script at all, only this stylesheet, nothing framed; forms post to the page's own origin. */
export const STATUS_CSP =
  `default-src 'none'; style-src ${STATUS_CSS_HASH}; img-src 'self' data:; base-uri 'none'; ` +
  "form-action 'self'; frame-ancestors 'none'"
