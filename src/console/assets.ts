// The console's one stylesheet and one script, served from memory under /console/assets (the build ships no copies).
import { createHash } from 'node:crypto';

const css = `*{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Hiragino Sans","Noto Sans JP","Yu Gothic",sans-serif;color:#1a1a1a;background:#fff;line-height:1.55}
body{margin:0}
a{color:#0b57d0}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
.skip{position:absolute;left:-9999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:1}
header{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.75rem 1.5rem;border-bottom:1px solid #d0d4da;background:#f6f7f9}
.brand{margin:0;font-weight:700}.brand a{color:#1a1a1a;text-decoration:none}
nav ul{display:flex;gap:1rem;list-style:none;margin:0;padding:0}
nav a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
.sign-out{margin:0 0 0 auto}.lang-switch{margin:0}
main{max-width:72rem;padding:1rem 1.5rem 3rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}h2{font-size:1.15rem;margin-top:2rem}
.muted{color:#555}
.error{color:#a50e0e;background:#fce8e6;padding:.5rem .75rem;border-radius:4px}
.notice{background:#e8f0fe;padding:.5rem .75rem;border-radius:4px}
input.secret{-webkit-text-security:disc;font-family:monospace}
.stats{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:.75rem;margin:0}
.stat{border:1px solid #d0d4da;border-radius:6px;padding:.6rem .8rem}
.stat dt{color:#555;font-size:.85rem}.stat dd{margin:0;font-size:1.35rem;font-variant-numeric:tabular-nums}
meter{display:block;width:100%}
.credits-bar{border:1px solid #d0d4da;border-radius:6px;padding:.2rem 1rem .8rem;margin-bottom:1rem}.credits-bar h2{margin:.6rem 0}
.credits-bar meter{height:1.4rem}.credits-bar dl{display:flex;flex-wrap:wrap;gap:.3rem 2.5rem;margin:.6rem 0 0}
.credits-bar dt{color:#555;font-size:.85rem}.credits-bar dd{margin:0;font-size:1.35rem;font-variant-numeric:tabular-nums}
progress{width:12rem;max-width:100%;height:1rem;vertical-align:middle}.batch-progress progress{width:100%;height:1.4rem;display:block;margin-bottom:.3rem}.progress-text{font-size:.85rem;margin-left:.4rem;font-variant-numeric:tabular-nums}.batch-progress .progress-text{margin-left:0}
.chart{width:100%;max-width:44rem;height:auto}.chart .bar{fill:#0b57d0}.chart .axis{stroke:#555}.chart text{font-size:11px;fill:#333}
table{border-collapse:collapse;font-size:.9rem}th,td{text-align:left;padding:.35rem .6rem;border-bottom:1px solid #e1e4e8;vertical-align:top}
thead th{background:#f6f7f9}.num{text-align:right;font-variant-numeric:tabular-nums}
.scroll{overflow-x:auto}td.url{word-break:break-all;min-width:12rem;max-width:22rem}
.sites tbody th{font-weight:400;min-width:9rem}.sites td.pattern{word-break:break-all;min-width:12rem;max-width:24rem}.sites .host{font-size:.8rem}
.levels{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;margin:0 0 1rem}.levels div{display:contents}.levels dd{margin:0}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85em}.wrap{word-break:break-all}
form.inline{display:flex;flex-wrap:wrap;align-items:flex-end;gap:.5rem 1rem;margin:1rem 0}
form.stack{display:grid;gap:.6rem;max-width:32rem}
.field{display:flex;flex-direction:column;gap:.2rem}
label{font-size:.9rem}fieldset{border:1px solid #d0d4da;border-radius:4px}.check{margin-right:1rem}
input,select,button{font:inherit;padding:.35rem .5rem;border:1px solid #767676;border-radius:4px;background:#fff;color:#1a1a1a}
button{background:#0b57d0;border-color:#0b57d0;color:#fff;cursor:pointer}button.danger{background:#a50e0e;border-color:#a50e0e}
.row-action{display:inline-block;margin:0 .3rem .3rem 0}
.created{border:2px solid #0a6b2e;border-radius:6px;padding:0 1rem;background:#e6f4ea}.new-secret code{font-size:1rem;word-break:break-all;user-select:all}
.detail{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}.detail div{display:contents}.detail dt{color:#555}.detail dd{margin:0}
.pager{display:flex;gap:1rem;margin-top:1rem}
.level{padding:0 .4rem;border-radius:3px}.level-stable{background:#e6f4ea;color:#0a5c28}.level-beta{background:#e8f0fe;color:#0842a0}
.level-verifying,.level-experimental{background:#fef7e0;color:#6b4e00}.level-stopped{background:#fce8e6;color:#a50e0e}
.price-figure{margin:1rem 0}.price-chart{display:block;width:100%;max-width:700px;height:auto}
.target-switch ul{flex-wrap:wrap;gap:.4rem 1rem;margin:.5rem 0}.target-switch a[aria-current=true]{font-weight:700;text-decoration-thickness:3px}
.target-prices{list-style:none;margin:0;padding:0}.target-prices li{margin-bottom:.4rem}.target-name{color:#555;margin-right:.3rem}.change{font-size:.85rem}
.message summary{cursor:pointer}.message-text{white-space:pre-line;margin:.3rem 0 0;font-size:.85rem}`;

// No framework: the pages work without it (forms and links); it only copies a new key and keeps the overview live.
const js = `"use strict";
(function () {
  var lang = document.documentElement.lang || "en";
  var number = new Intl.NumberFormat(lang === "ja" ? "ja-JP" : "en-US");
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var source = document.getElementById(button.getAttribute("data-copy"));
      if (!source || !navigator.clipboard) return;
      navigator.clipboard.writeText(source.textContent).then(function () {
        button.textContent = button.getAttribute("data-copied");
      });
    });
  });
  // A batch's page while it runs: reloaded (its counts come from one row) every few seconds the tab is shown.
  var refresh = document.querySelector("[data-refresh-ms]");
  if (refresh) {
    var every = Number(refresh.getAttribute("data-refresh-ms"));
    if (every >= 1000) setInterval(function () { if (!document.hidden) location.reload(); }, every);
  }
  var live = document.querySelectorAll("[data-live]");
  if (live.length === 0 || !window.EventSource) return;
  var events = null;
  function onUsage(event) {
    var data = JSON.parse(event.data);
    live.forEach(function (element) {
      var value = element.getAttribute("data-live").split(".").reduce(function (at, part) {
        return at == null ? undefined : at[part];
      }, data);
      if (typeof value === "number") element.textContent = number.format(value);
    });
    var meter = document.getElementById("concurrency-meter");
    if (meter && data.concurrency) {
      meter.max = data.concurrency.limit;
      meter.value = data.concurrency.in_use;
    }
    var credits = document.getElementById("credits-meter");
    if (credits && data.credits) {
      credits.max = Math.max(1, data.credits.limit);
      credits.value = data.credits.used;
    }
  }
  function disconnect() {
    if (events) events.close();
    events = null;
  }
  var stopped = false;
  // The stream ended for good (session over, or refused): say the numbers are frozen, and offer a reload.
  function stop() {
    disconnect();
    stopped = true;
    var on = document.getElementById("live-on");
    var off = document.getElementById("live-off");
    if (on) on.hidden = true;
    if (off) off.hidden = false;
  }
  function connect() {
    if (events || stopped) return;
    var source = new EventSource("/console/events");
    events = source;
    source.addEventListener("usage", onUsage);
    source.addEventListener("end", stop);
    // CONNECTING after an error is the browser retrying; CLOSED means it gave up (a 401 or 429 answer).
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.CLOSED && events === source) stop();
    });
  }
  // A hidden tab holds no stream (the server caps them per session and account); it reopens when shown again.
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) disconnect();
    else connect();
  });
  if (!document.hidden) connect();
})();
`;

export interface Asset {
  body: string;
  contentType: string;
  /** A strong validator; the assets change only with a new build. */
  etag: string;
}

function asset(body: string, contentType: string): Asset {
  return { body, contentType, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
}

export const assets: Readonly<Record<string, Asset>> = Object.freeze({
  'console.css': asset(css, 'text/css; charset=utf-8'),
  'console.js': asset(js, 'text/javascript; charset=utf-8'),
});
