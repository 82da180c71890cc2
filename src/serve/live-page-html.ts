/**
 * The live page served at `GET /`: a self-contained HTML page that loads `/v1/summary` (without
 * `task_metric_values`, which it does not show), re-fetches it on score events from `/v1/events`, and
 * renders the aggregates as text (never as HTML). It reads the summary at most once per second, and
 * at most once per 20 times the server's build time (its `Server-Timing`), so that an open page costs
 * the server at most ~5 % of its time however large the run grows (`summaryDelayMs`, exposed on
 * `window` for tests).
 *
 * @example
 * res.end(livePageHtml());
 */
export function livePageHtml(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>evalstream live</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px;color:#1d2330;background:#f7f8fa}
h1{font-size:20px;margin:0 0 4px} .muted{color:#667085} table{border-collapse:collapse;margin-top:16px;background:#fff;min-width:640px}
th,td{padding:6px 12px;border-bottom:1px solid #e4e7ec;text-align:right} th:first-child,td:first-child{text-align:left}
th{background:#eef1f6;font-weight:600} .dot{display:inline-block;width:8px;height:8px;border-radius:50%;background:#d92d20;margin-right:6px}
.dot.on{background:#12b76a}
</style></head><body>
<h1>evalstream live</h1>
<div class="muted"><span id="dot" class="dot"></span><span id="status">connecting…</span></div>
<div id="counts" class="muted"></div>
<table><thead><tr><th>aggregate</th><th>mean</th><th>count</th><th>nan_count</th></tr></thead><tbody id="rows"></tbody></table>
<script>
(function(){
  var token = new URLSearchParams(location.search).get('token');
  var q = token ? ('?token=' + encodeURIComponent(token)) : '';
  function cell(tr, text){ var td = document.createElement('td'); td.textContent = text; tr.appendChild(td); }
  function fmt(v){ return v === null || v === undefined ? '—' : (typeof v === 'number' ? String(Math.round(v * 10000) / 10000) : String(v)); }
  function render(s){
    document.getElementById('counts').textContent = 'tasks ' + s.task_count + ' · trials ' + s.trial_count + ' · scores ' + s.score_count + ' · errors ' + s.error_count;
    var body = document.getElementById('rows'); body.textContent = '';
    (s.scores && s.scores.scores || []).forEach(function(a){
      var tr = document.createElement('tr'); cell(tr, a.name); cell(tr, fmt(a.mean)); cell(tr, fmt(a.count)); cell(tr, fmt(a.nan_count)); body.appendChild(tr);
    });
  }
  // at most one summary request in flight, one per second, and one per 20 build times: under load
  // score events come by thousands, and a summary of many trials takes the server a while to build
  function summaryDelayMs(costMs){ return Math.max(1000, 20 * (costMs > 0 ? costMs : 0)); }
  window.summaryDelayMs = summaryDelayMs;
  function buildMs(r){
    var m = /(?:^|,)\\s*summary;dur=([0-9.]+)/.exec(r.headers.get('server-timing') || '');
    return m ? Number(m[1]) : 0;
  }
  var pending = false, again = false, last = 0, cost = 0;
  function refresh(){
    if (pending) { again = true; return; }
    var wait = last + summaryDelayMs(cost) - Date.now();
    if (wait > 0) { pending = true; setTimeout(function(){ pending = false; refresh(); }, wait); return; }
    pending = true; again = false; last = Date.now();
    var done = function(){ pending = false; if (again) refresh(); };
    fetch('/v1/summary?omit=task_metric_values' + (token ? '&token=' + encodeURIComponent(token) : ''))
      .then(function(r){ cost = buildMs(r); return r.json(); })
      .then(function(s){ render(s); done(); }, done);
  }
  refresh();
  var es = new EventSource('/v1/events' + q);
  es.onopen = function(){ document.getElementById('dot').className = 'dot on'; document.getElementById('status').textContent = 'live'; };
  es.onerror = function(){ document.getElementById('dot').className = 'dot'; document.getElementById('status').textContent = 'disconnected, retrying…'; };
  es.addEventListener('score', refresh);
})();
</script></body></html>
`;
}
