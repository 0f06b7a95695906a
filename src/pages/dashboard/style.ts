/**
 * The dashboard's stylesheet, served as a file (`assets/style.css`): the CSP allows styles from
 * payemu itself only, so nothing of the look is inline. Tables never wrap inside a word: an id,
 * a time or an amount stays on one line and a wide table scrolls inside its box; only cells
 * marked `wrap` (descriptions, answers) break, between words.
 */
export const STYLE = `*{box-sizing:border-box}
:root{--bg:#f5f6f8;--card:#fff;--line:#e3e6eb;--soft:#eef0f4;--text:#1b2130;--muted:#596174;--brand:#3b5bdb;--link:#2d47b8;--head:#141926}
body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--text);-webkit-text-size-adjust:100%}
a{color:var(--link);text-decoration-color:#a9b6e6;text-underline-offset:2px} a:hover{text-decoration-color:currentColor}
header{background:var(--head);color:#fff;padding:0 20px}
.bar,header nav{max-width:1160px;margin:0 auto}
.bar{display:flex;flex-wrap:wrap;gap:8px 14px;align-items:center;padding:10px 0 6px}
.brand{display:inline-flex;align-items:center;gap:8px;font-weight:700;font-size:16px;letter-spacing:.01em;color:#fff;text-decoration:none}
.brand svg{width:24px;height:24px;flex:none}
nav{display:flex;flex-wrap:wrap;gap:0 2px}
nav a{color:#ccd3e4;text-decoration:none;padding:8px 10px 9px;white-space:nowrap;box-shadow:inset 0 -2px 0 transparent} nav a:hover{color:#fff;box-shadow:inset 0 -2px 0 #4a5675}
nav a[aria-current=page]{color:#fff;font-weight:600;box-shadow:inset 0 -2px 0 #7c9cff}
.switcher{display:flex;flex-wrap:wrap;gap:6px 10px;align-items:center;font-size:13px;color:#ccd3e4;margin-left:auto}
.switcher label{display:inline-flex;gap:6px;align-items:center}
.switcher select{height:30px;padding:0 6px;border:1px solid #3a4356;border-radius:6px;background:#1f2534;color:#fff}
.switcher button{height:30px;padding:0 12px}
main{max-width:1200px;margin:0 auto;padding:18px 20px 40px}
.scope{display:inline-flex;align-items:center;gap:6px;font-size:12px;font-weight:600;padding:2px 10px;border-radius:999px;background:#fff4d6;color:#6b4200;white-space:nowrap}
.scope.live{background:#ffe3e3;color:#a01111}
h1{font-size:22px;line-height:1.3;margin:6px 0 16px;overflow-wrap:anywhere} h2{font-size:15px;margin:26px 0 10px} h3{font-size:14px;margin:16px 0 8px} h3 .muted{font-weight:400}
.heading{display:flex;flex-wrap:wrap;align-items:center;gap:6px 12px;margin:6px 0 16px} .heading h1{margin:0}
.card,dl,.scroll,form.filters,pre{background:var(--card);border:1px solid var(--line);border-radius:10px}
.card{padding:16px} .narrow{max-width:680px} .card>p:first-child{margin-top:0} .card>p:last-child{margin-bottom:0}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,400px),1fr));gap:16px;margin-bottom:8px} .grid.charts{grid-template-columns:repeat(auto-fit,minmax(min(100%,320px),1fr))} .grid>section>h2{margin-top:0}
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:8px 20px;padding:14px 16px;margin:0}
dt{color:var(--muted)} dd{margin:0;min-width:0;overflow-wrap:anywhere} dd code{overflow-wrap:anywhere}
dl.tiles{grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:12px;padding:0;background:none;border:0}
.tiles>div{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 14px;display:flex;flex-direction:column;gap:2px}
.tiles dt{font-size:13px} .tiles dd{font-size:24px;font-weight:650;font-variant-numeric:tabular-nums;line-height:1.2}
.sub{display:block;color:var(--muted);font-size:12px}
.scroll{overflow-x:auto;max-width:100%;position:relative} .scroll:focus-visible{outline:2px solid var(--brand);outline-offset:2px}
table{border-collapse:collapse;width:100%;font-size:13.5px}
th,td{text-align:left;padding:8px 12px;border-bottom:1px solid var(--soft);vertical-align:top;white-space:nowrap}
th{font-size:12px;font-weight:600;color:var(--muted);background:#f9fafb;border-bottom-color:var(--line)}
tbody tr:last-child td{border-bottom:0} tbody tr:hover{background:#fafbfd}
td a{text-decoration:none} td a:hover{text-decoration:underline}
.num{text-align:right;font-variant-numeric:tabular-nums}
td.wrap{white-space:normal;min-width:14em;max-width:32em;overflow-wrap:break-word}
time{white-space:nowrap}
.id,code,pre{font:12.5px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{padding:14px;overflow-x:auto;max-width:100%;white-space:pre-wrap;overflow-wrap:anywhere;margin:0}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.badge{display:inline-flex;align-items:center;gap:6px;padding:1px 9px;border-radius:999px;font-size:12px;font-weight:600;line-height:19px;white-space:nowrap;background:#eaeef2;color:#3d4550}
.badge::before{content:"";width:6px;height:6px;border-radius:50%;background:currentColor}
.badge.code::before{content:none}
.badge.ok{background:#dcf5e3;color:#10602a} .badge.bad{background:#ffe7e5;color:#a3111f} .badge.warn{background:#fff0c2;color:#744800}
.badge.info{background:#dcefff;color:#0b4f9f} .badge.refund{background:#f3e8ff;color:#6530a8}
form.filters{display:flex;flex-wrap:wrap;gap:10px 12px;align-items:flex-end;margin:0 0 14px;padding:12px 14px}
form.filters label{display:flex;flex-direction:column;gap:4px;font-size:12px;font-weight:600;color:var(--muted)}
form.filters label.check{flex-direction:row;align-items:center;gap:6px;height:34px;font-size:13px;color:var(--text)}
input,select,button{font:inherit;color:inherit}
input:not([type=checkbox]),select{height:34px;padding:0 10px;border:1px solid #c9cfda;border-radius:6px;background:#fff;max-width:100%;font-weight:400;color:var(--text)}
input:focus,select:focus{outline:2px solid #7c9cff;outline-offset:0;border-color:var(--brand)}
button{height:34px;padding:0 14px;border:0;border-radius:6px;background:var(--brand);color:#fff;font-weight:600;cursor:pointer} button:hover{background:#2f4ac0}
button.danger{background:#c62828} button.danger:hover{background:#a51d1d}
main>form:not(.filters),section>form{margin:12px 0 4px} td form{margin:0} td button{height:28px;padding:0 10px;font-size:12.5px}
.muted{color:var(--muted)} .notice{margin:0;padding:8px 16px;background:#fff4d6;color:#5c3b00;text-align:center}
.alert{padding:10px 14px;border-radius:8px;background:#fdecea;color:#8e1c1c;border:1px solid #f6c9c4} .alert.ok{background:#e6f4ea;color:#1e6b34;border-color:#bfe3c9}
.pager{display:flex;gap:16px;align-items:center;margin:10px 0}
.actions{display:flex;flex-wrap:wrap;gap:10px;align-items:center;margin:12px 0}
.timeline{list-style:none;margin:0;padding:6px 16px 6px 14px;background:var(--card);border:1px solid var(--line);border-radius:10px}
.timeline li{position:relative;padding:10px 0 10px 26px;border-left:2px solid var(--soft);margin-left:6px}
.timeline li::before{content:"";position:absolute;left:-7px;top:15px;width:12px;height:12px;border-radius:50%;background:#fff;border:2px solid #98a2b3}
.timeline li.ok::before{border-color:#1f8a47;background:#dcf5e3} .timeline li.bad::before{border-color:#c62828;background:#ffe7e5}
.timeline li.warn::before{border-color:#b77b00;background:#fff0c2} .timeline li.info::before{border-color:#2f6fd0;background:#dcefff}
.timeline li.refund::before{border-color:#7b45c4;background:#f3e8ff}
.timeline time{display:block;font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:var(--muted);white-space:nowrap}
.timeline .what{display:flex;flex-wrap:wrap;gap:4px 8px;align-items:center} .timeline ul{list-style:none;margin:6px 0 0;padding:0;font-size:13px}
.timeline ul li{border:0;padding:3px 0 3px 0;margin:0;display:flex;flex-wrap:wrap;gap:4px 8px;align-items:center} .timeline ul li::before{content:none}
.chart{padding:14px 16px} .chart svg{display:block;width:100%;height:auto} .chart h3{margin:0 0 4px}
.chart .axis{stroke:#d5dae2;stroke-width:1} .chart .grid-line{stroke:#eef0f4;stroke-width:1} .chart text{font:11px system-ui,sans-serif;fill:#596174}
.fill-ok{fill:#2f9e5b} .fill-bad{fill:#d64545} .fill-warn{fill:#e0a100} .fill-info{fill:#3b82d6} .fill-refund{fill:#8b5cd6} .fill-refund-light{fill:#c3a6ee} .fill-neutral{fill:#8b95a5} .fill-neutral-light{fill:#c5cbd4}
.legend{display:flex;flex-wrap:wrap;gap:4px 14px;list-style:none;margin:8px 0 0;padding:0;font-size:12.5px;color:var(--muted)}
.legend li{display:inline-flex;align-items:center;gap:6px} .legend svg{width:10px;height:10px}
details.table{margin-top:8px;font-size:13px} details.table summary{cursor:pointer;color:var(--link)} details.table .scroll{margin-top:8px}
@media (max-width:640px){header{padding:0 12px} .switcher{margin-left:0} .switcher .word{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap} nav a{padding:6px 8px 7px} main{padding:12px 12px 32px} th,td{padding:6px 8px}
 .tiles>div{padding:8px 12px} .tiles dd{font-size:20px}
 dl{grid-template-columns:minmax(0,1fr);gap:2px 0} dt{font-weight:600;margin-top:6px} dt:first-child{margin-top:0} dl.tiles{grid-template-columns:repeat(2,minmax(0,1fr))}
 .tiles dt{margin-top:0} .chart text{font-size:15px}}`;
