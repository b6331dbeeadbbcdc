// Sentence browser of a ktr run report. Reads the JSON embedded in #ktr-data; no network.
"use strict";
window.addEventListener("error", (e) => {
  const root = document.documentElement;
  root.dataset.jsErrors = (root.dataset.jsErrors || "") + e.message + "\n";
});

(function () {
  const data = JSON.parse(document.getElementById("ktr-data").textContent);
  const $ = (id) => document.getElementById(id);
  const state = { variant: 0, order: "index", find: "", current: 0 };

  const fmt = (x) => (x === null || x === undefined ? "–" : x.toFixed(2));

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    Object.assign(node, props || {});
    for (const c of children) node.append(c);
    return node;
  }

  // Text with marked spans; offsets count Unicode code points, as Python's do.
  function marked(text, spans) {
    const chars = Array.from(text);
    const frag = document.createDocumentFragment();
    let pos = 0;
    spans.sort((a, b) => a.s - b.s || b.e - a.e);
    for (const sp of spans) {
      if (sp.s < pos || sp.e <= sp.s || sp.e > chars.length) continue;
      if (sp.s > pos) frag.append(chars.slice(pos, sp.s).join(""));
      // a tab stop: focusing a mark by keyboard shows what its title says (see "mark-note")
      frag.append(el("mark", { className: sp.cls, title: sp.title, tabIndex: 0 }, chars.slice(sp.s, sp.e).join("")));
      pos = sp.e;
    }
    frag.append(chars.slice(pos).join(""));
    return frag;
  }

  function variant() { return data.variants[state.variant]; }

  function scoreOf(system, i) { return variant().results[system].scores[i]; }

  function spread(i) {
    const base = scoreOf(data.baseline, i);
    if (base === null) return -1;
    let most = 0;
    for (const s of data.systems) {
      const x = scoreOf(s, i);
      if (x !== null) most = Math.max(most, Math.abs(x - base));
    }
    return most;
  }

  function order() {
    const needle = state.find.toLowerCase();
    let rows = data.sources.map((_, i) => i);
    if (needle) {
      rows = rows.filter((i) => data.sources[i].toLowerCase().includes(needle) ||
        data.systems.some((s) => data.outputs[s][i].toLowerCase().includes(needle)));
    }
    if (state.order === "diff") rows.sort((a, b) => spread(b) - spread(a) || a - b);
    if (state.order === "low") {
      const key = (i) => (scoreOf(data.baseline, i) === null ? 2 : scoreOf(data.baseline, i));
      rows.sort((a, b) => key(a) - key(b) || a - b);
    }
    return rows;
  }

  function renderList() {
    const list = $("list");
    list.replaceChildren();
    for (const i of order()) {
      const scores = data.systems.map((s) => fmt(scoreOf(s, i))).join(" ");
      const item = el("li", { title: data.sources[i] }, el("span", { className: "line" }, String(i + 1)),
        el("span", { className: "score" }, scores), " ", data.sources[i]);
      item.dataset.index = i;
      item.setAttribute("role", "option");
      item.addEventListener("click", () => select(i));
      list.append(item);
    }
    markCurrent();
  }

  // one tab stop in the list (the current line, else the first shown); arrows move between lines
  function markCurrent() {
    const items = Array.from($("list").children);
    const stop = items.find((li) => Number(li.dataset.index) === state.current) || items[0];
    for (const li of items) {
      const current = Number(li.dataset.index) === state.current;
      li.classList.toggle("current", current);
      li.setAttribute("aria-selected", String(current));
      li.tabIndex = li === stop ? 0 : -1;
    }
  }

  function renderDetail() {
    const i = state.current;
    const v = variant();
    const detail = $("detail");
    detail.replaceChildren(el("h3", {}, `Line ${i + 1} · variant ${v.name}`),
      el("p", { id: "mark-note", className: "note" }, "Point at a marked word, or reach it with Tab, to see what ktr found."));
    data.references.forEach((ref, r) => {
      detail.append(el("h4", {}, data.references.length > 1 ? `reference ${r + 1}` : "reference"),
        el("div", { className: "text" }, ref[i]));
    });
    for (const system of data.systems) {
      const outcome = v.results[system].kw[i];
      const sourceMarks = v.keywords[i].map(([s, e, lemma, cls], k) => {
        const [how, matched, , , inLexicon] = outcome[k];
        const kind = how ? "hit" : (inLexicon ? "miss" : "nolex");
        const what = how ? `→ ${matched} (${how})` : (inLexicon ? "not found in the output" : "no lexicon entry");
        return { s, e, cls: kind, title: `${lemma} · ${cls} ${what}` };
      });
      const tokens = data.tokenSpans[system][i];
      const outputMarks = [];
      outcome.forEach(([how, matched, ts, te], k) => {
        if (!how || !tokens || ts === null) return;
        outputMarks.push({ s: tokens[ts][0], e: tokens[te - 1][1], cls: "match",
          title: `${v.keywords[i][k][2]} → ${matched} (${how})` });
      });
      (v.results[system].added[i] || []).forEach((t) => {
        if (tokens && tokens[t]) outputMarks.push({ s: tokens[t][0], e: tokens[t][1], cls: "added",
          title: "added: no keyword of the source accounts for it" });
      });
      const label = system + (system === data.baseline ? " (baseline)" : "");
      const block = el("div", { className: "system" },
        el("h4", {}, `${label} · KTR ${fmt(scoreOf(system, i))}`),
        el("div", { className: "text source" }, marked(data.sources[i], sourceMarks)),
        el("div", { className: "text output" }, marked(data.outputs[system][i], outputMarks)));
      block.dataset.system = system;
      detail.append(block);
    }
  }

  function select(i) {
    state.current = i;
    markCurrent();
    renderDetail();
  }

  $("list").addEventListener("keydown", (e) => {
    const li = e.target.closest("li");
    if (!li) return;
    const list = $("list");
    const to = { ArrowDown: li.nextElementSibling, ArrowUp: li.previousElementSibling,
      Home: list.firstElementChild, End: list.lastElementChild }[e.key];
    if (to) { e.preventDefault(); select(Number(to.dataset.index)); to.focus(); }
    else if (e.key === "Enter" || e.key === " ") { e.preventDefault(); select(Number(li.dataset.index)); }
  });
  const explain = (e) => { if (e.target.tagName === "MARK") $("mark-note").textContent = e.target.title; };
  $("detail").addEventListener("focusin", explain);
  $("detail").addEventListener("mouseover", explain);

  $("list-head").textContent = `line · KTR of ${data.systems.join(", ")}`;
  const variantSelect = $("variant");
  data.variants.forEach((v, k) => variantSelect.append(el("option", { value: k }, v.name)));
  variantSelect.addEventListener("change", () => { state.variant = Number(variantSelect.value); renderList(); renderDetail(); });
  $("order").addEventListener("change", (e) => { state.order = e.target.value; renderList(); });
  $("find").addEventListener("input", (e) => { state.find = e.target.value; renderList(); });
  document.querySelectorAll("[data-goto]").forEach((a) => a.addEventListener("click", (e) => {
    e.preventDefault();
    state.variant = data.variants.findIndex((v) => v.name === a.dataset.variant);
    variantSelect.value = state.variant;
    renderList();
    select(Number(a.dataset.goto));
    $("browser").scrollIntoView();
  }));

  // deep link: #line=N (1-based), optionally &variant=NAME
  const link = new URLSearchParams(location.hash.slice(1));
  const linked = data.variants.findIndex((v) => v.name === link.get("variant"));
  if (linked >= 0) { state.variant = linked; variantSelect.value = linked; }
  const line = Number(link.get("line"));
  renderList();
  if (data.sources.length) select(line >= 1 && line <= data.sources.length ? line - 1 : 0);
  // no font with Hangul: a Hangul syllable is drawn as the same box as a private-use character
  const hangulMissing = () => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 48;
    const g = canvas.getContext("2d", { willReadFrequently: true });
    if (!g) return false;
    g.font = `32px ${getComputedStyle(document.body).fontFamily}`;
    const drawn = (c) => { g.clearRect(0, 0, 48, 48); g.fillText(c, 4, 36); return g.getImageData(0, 0, 48, 48).data.join(); };
    return drawn("\u{D55C}") === drawn("\u{E000}");
  };
  $("font-note").hidden = !hangulMissing();
  document.documentElement.dataset.ready = "true";
})();
