// SPDX-License-Identifier: GPL-2.0
/*
 * The explorer (lockdep-graph -T html): the lock graph of a boot, or of a
 * union of boots, from the JSON in #graph-data (graph-html.c says what it
 * holds). Nothing is laid out until asked for: a view is a few dozen
 * classes (one class and its most relevant neighbours, a cycle, an irq
 * path, a report's chain, a path between two classes), laid out here in
 * layers, left to right, as dot would. No view holds more than
 * MAX_SHOWN classes: a longer cycle or path is drawn a stretch at a time
 * (the reader steps along it), its text elided in the middle. Every
 * name came from a guest: it reaches the page through textContent and
 * property values only.
 *
 * #selftest=search:NAME,expand:NAME,path:FROM+TO,edge:FROM+TO,report:ID,
 * view:,later: (each name encodeURIComponent'd, which leaves no ',', ':' or
 * '+' in it) drives the page as a reader would, clicks included, and
 * writes what happened into #selftest-result: the tool test reads it
 * from chromium --dump-dom.
 */
'use strict';

(function () {
	const t0 = performance.now();
	const D = JSON.parse(document.getElementById('graph-data').textContent);
	const NODES = D.nodes, EDGES = D.edges, SITES = D.sites;
	let stacks = null;	/* #graph-stacks, parsed when first asked for */
	const N = NODES.length;
	const SVGNS = 'http://www.w3.org/2000/svg';
	const BATCH = 10;		/* neighbours shown per click */
	const MAX_SHOWN = 150;		/* a view stays readable */
	const STRETCH = MAX_SHOWN - 1;	/* dependencies of a chain drawn at once */
	const PATH_HEAD = 8, PATH_TAIL = 2;	/* names spelled out of a long chain */
	const MAX_LIST = 300;		/* items of a side list */
	const $ = (id) => document.getElementById(id);

	/* node fields, edge fields: see graph-html.c */
	const name = (n) => NODES[n][0];
	const E_FROM = 0, E_TO = 1, E_SITE = 2, E_DEPS = 3, E_DIST = 4,
		E_BOOTS = 5, E_FIRST = 6, E_STACK = 7, E_INFO_BOOT = 8;

	const out = [], inn = [];
	for (let n = 0; n < N; n++) {
		out.push([]);
		inn.push([]);
	}
	EDGES.forEach((e, i) => {
		out[e[E_FROM]].push(i);
		inn[e[E_TO]].push(i);
	});
	/* on a listed cycle or irq path: ranked first, drawn bold */
	const risky = new Uint8Array(EDGES.length);
	D.cycles.forEach((c) => c.slice(1).forEach((e) => { risky[e] = 1; }));
	D.irq.forEach((p) => p.slice(1).forEach((e) => { risky[e] = 1; }));
	const lower = NODES.map((n) => n[0].toLowerCase());
	const byName = new Map();
	NODES.forEach((n, i) => { if (!byName.has(n[0])) byName.set(n[0], i); });

	function el(tag, cls, text) {
		const e = document.createElement(tag);
		if (cls)
			e.className = cls;
		if (text !== undefined && text !== null)
			e.textContent = text;
		return e;
	}

	function svg(tag, attrs) {
		const e = document.createElementNS(SVGNS, tag);
		for (const k in attrs)
			e.setAttribute(k, attrs[k]);
		return e;
	}

	function bootName(b) {
		const boot = D.boots[b];
		if (!boot)
			return '?';
		return 'boot ' + boot.id + (boot.label !== null ? ' (' + boot.label + ')' : '');
	}

	function clear(e) {
		while (e.firstChild)
			e.removeChild(e.firstChild);
	}

	/* ---- what is shown ---- */

	const view = {
		shown: new Set(),	/* nodes */
		hi: new Set(),		/* edges drawn bold in this view */
		focus: -1,
		selNode: -1,
		selEdge: -1,
		title: '',
		chain: null,	/* a long cycle or path drawn in stretches */
	};
	const nodeEls = new Map();	/* node -> its <g> */
	const edgeEls = new Map();	/* edge -> its <g> */

	/* Node n's neighbours, most relevant first: risky edges, then busy classes. */
	function ranked(n) {
		const seen = new Map();
		const add = (e, m) => {
			const r = risky[e];
			if (m !== n && (!seen.has(m) || seen.get(m) < r))
				seen.set(m, r);
		};
		out[n].forEach((e) => add(e, EDGES[e][E_TO]));
		inn[n].forEach((e) => add(e, EDGES[e][E_FROM]));
		const deg = (m) => out[m].length + inn[m].length;
		return [...seen.keys()].sort((a, b) =>
			seen.get(b) - seen.get(a) || deg(b) - deg(a) ||
			(name(a) < name(b) ? -1 : 1));
	}

	function hidden(n) {
		let k = 0;
		ranked(n).forEach((m) => { if (!view.shown.has(m)) k++; });
		return k;
	}

	/* Show the next BATCH hidden neighbours of n; the number shown. */
	function expand(n) {
		let k = 0;
		for (const m of ranked(n)) {
			if (k >= BATCH || view.shown.size >= MAX_SHOWN)
				break;
			if (!view.shown.has(m)) {
				view.shown.add(m);
				k++;
			}
		}
		return k;
	}

	function setView(nodes, edges, title, focus, chain) {
		view.shown = new Set(nodes.slice(0, MAX_SHOWN));
		view.hi = new Set(edges);
		view.focus = focus === undefined ? -1 : focus;
		view.selNode = view.selEdge = -1;
		view.title = title + (nodes.length > MAX_SHOWN ? ': the first ' +
			MAX_SHOWN + ' of its ' + nodes.length + ' classes drawn' : '');
		view.chain = chain || null;
		render(true);
		if (edges.length)
			showEdges(view.title, edges.filter((e) =>
				view.shown.has(EDGES[e][E_FROM]) && view.shown.has(EDGES[e][E_TO])));
	}

	/*
	 * A cycle or path: its dependencies in order. One longer than a view
	 * holds is drawn STRETCH dependencies at a time from the one at @at,
	 * the details listing those, with a step to the ones before and after.
	 */
	function chainView(edges, title, at) {
		if (edges.length <= STRETCH) {
			setView(edgesNodes(edges), edges, title);
			return;
		}
		at = Math.max(0, Math.min(at, edges.length - STRETCH));
		const part = edges.slice(at, at + STRETCH);
		setView(edgesNodes(part), part, title + ': dependencies ' + (at + 1) +
			'\u2013' + (at + part.length) + ' of ' + edges.length +
			' drawn (a view holds ' + MAX_SHOWN + ' classes)', -1,
			{ edges: edges, title: title, at: at });
	}

	function focusClass(n) {
		setView([n], [], '', n);
		expand(n);
		view.title = name(n) + ': ' + inn[n].length + ' held before it, ' +
			out[n].length + ' taken after it';
		render(true);
		showNode(n);
	}

	function edgesNodes(edges) {
		const s = new Set();
		edges.forEach((e) => {
			s.add(EDGES[e][E_FROM]);
			s.add(EDGES[e][E_TO]);
		});
		return [...s];
	}

	/* "a → b → c"; a long chain's middle counted, not spelled out */
	function pathText(edges) {
		if (!edges.length)
			return '';
		const names = (list) => list.map((e) => name(EDGES[e][E_TO]));
		const first = name(EDGES[edges[0]][E_FROM]);
		if (edges.length + 1 <= PATH_HEAD + PATH_TAIL + 2)
			return [first].concat(names(edges)).join(' \u2192 ');
		const skipped = edges.length + 1 - PATH_HEAD - PATH_TAIL;
		return [first].concat(names(edges.slice(0, PATH_HEAD - 1)),
			['\u2026 ' + skipped + ' more \u2026'],
			names(edges.slice(-PATH_TAIL))).join(' \u2192 ');
	}

	/* ---- layout: layers left to right, as dot's rankdir=LR ---- */

	let measure = null;
	function textWidth(s) {
		if (!measure) {
			measure = document.createElement('canvas').getContext('2d');
			measure.font = '12px ui-monospace, "DejaVu Sans Mono", monospace';
		}
		return measure.measureText(s).width;
	}

	function label(n) {
		const s = name(n);
		return s.length > 64 ? s.slice(0, 30) + '\u2026' + s.slice(-30) : s;
	}

	function focusLayers(f, k, nodes, idx, fallback) {
		const d = new Int32Array(k).fill(0x7fffffff);
		d[f] = 0;
		const walk = (list, end, sign) => {
			const q = [f];
			for (let h = 0; h < q.length; h++)
				for (const e of list[nodes[q[h]]]) {
					const w = idx.get(EDGES[e][end]);
					if (w !== undefined && d[w] === 0x7fffffff) {
						d[w] = d[q[h]] + sign;
						q.push(w);
					}
				}
		};
		walk(out, E_TO, 1);
		walk(inn, E_FROM, -1);
		let lo = 0;
		for (let i = 0; i < k; i++) {
			if (d[i] === 0x7fffffff)
				d[i] = fallback[i] - fallback[f];
			lo = Math.min(lo, d[i]);
		}
		return d.map((x) => x - lo);
	}

	function layout(nodes, edges) {
		const idx = new Map();
		nodes.forEach((n, i) => idx.set(n, i));
		const k = nodes.length;
		const succ = [], pred = [];
		for (let i = 0; i < k; i++) {
			succ.push([]);
			pred.push([]);
		}
		/* a depth-first search drops the edges that close a cycle */
		const state = new Uint8Array(k), order = [];
		const back = new Set();
		const dfs = (root) => {
			const stack = [[root, 0]];
			state[root] = 1;
			while (stack.length) {
				const top = stack[stack.length - 1];
				const v = top[0], list = out[nodes[v]];
				if (top[1] < list.length) {
					const e = list[top[1]++];
					const w = idx.get(EDGES[e][E_TO]);
					if (w === undefined)
						continue;
					if (state[w] === 1)
						back.add(e);
					else if (!state[w]) {
						state[w] = 1;
						stack.push([w, 0]);
					}
				} else {
					state[v] = 2;
					order.push(v);
					stack.pop();
				}
			}
		};
		for (let i = 0; i < k; i++)
			if (!state[i])
				dfs(i);
		edges.forEach((e) => {
			if (back.has(e))
				return;
			const a = idx.get(EDGES[e][E_FROM]), b = idx.get(EDGES[e][E_TO]);
			if (a !== b) {
				succ[a].push(b);
				pred[b].push(a);
			}
		});
		/* longest path from the sources, then sources pulled to their successors */
		let layer = new Int32Array(k);
		const topo = order.slice().reverse();
		topo.forEach((v) => succ[v].forEach((w) => {
			layer[w] = Math.max(layer[w], layer[v] + 1);
		}));
		for (let i = order.length - 1; i >= 0; i--) {
			const v = topo[i];
			if (!pred[v].length && succ[v].length)
				layer[v] = Math.min(...succ[v].map((w) => layer[w])) - 1;
		}
		/*
		 * Around one class, its neighbours among themselves would make
		 * a long thin chain: there the layer is the distance from the
		 * class instead (before it to the left, after it to the right).
		 */
		const f = idx.get(view.focus);
		if (f !== undefined)
			layer = focusLayers(f, k, nodes, idx, layer);
		const nl = Math.max(0, ...layer) + 1;
		const layers = [];
		for (let l = 0; l < nl; l++)
			layers.push([]);
		topo.forEach((v) => layers[layer[v]].push(v));
		/* crossings: a few barycentre sweeps each way */
		const pos = new Float64Array(k);
		const place = () => layers.forEach((L) => L.forEach((v, i) => { pos[v] = i; }));
		place();
		const bary = (v, nb) => nb.length ?
			nb.reduce((s, w) => s + pos[w], 0) / nb.length : pos[v];
		for (let sweep = 0; sweep < 8; sweep++) {
			const down = sweep % 2 === 0;
			for (let j = 0; j < nl; j++) {
				const L = layers[down ? j : nl - 1 - j];
				const key = new Map(L.map((v) => [v, bary(v, down ? pred[v] : succ[v])]));
				L.sort((a, b) => key.get(a) - key.get(b));
				L.forEach((v, i) => { pos[v] = i; });
			}
		}
		/* coordinates */
		const W = nodes.map((n) => textWidth(label(n)) + 22 + (hidden(n) ? 34 : 0));
		const H = 26, VGAP = 12, HGAP = 64;
		const xy = new Array(k);
		let x = 0;
		layers.forEach((L) => {
			const w = Math.max(...L.map((v) => W[v]));
			const top = -(L.length * (H + VGAP) - VGAP) / 2;
			L.forEach((v, i) => {
				xy[v] = { x: x + (w - W[v]) / 2, y: top + i * (H + VGAP), w: W[v], h: H, layer: layer[v] };
			});
			x += w + HGAP;
		});
		return { idx: idx, xy: xy };
	}

	/* ---- drawing ---- */

	const svgEl = $('graph');
	const pan = { x: 0, y: 0, k: 1 };
	let viewport = null;

	function applyPan() {
		if (viewport)
			viewport.setAttribute('transform', 'translate(' + pan.x + ',' + pan.y + ') scale(' + pan.k + ')');
	}

	function markers(defs) {
		[['arrow', '#8793a0'], ['arrow-bold', '#c0392b'], ['arrow-sel', '#2d6cb5']].forEach((m) => {
			const mk = svg('marker', { id: m[0], viewBox: '0 0 10 10', refX: 9, refY: 5,
				markerUnits: 'userSpaceOnUse', markerWidth: 9, markerHeight: 9,
				orient: 'auto-start-reverse' });
			mk.appendChild(svg('path', { d: 'M0,0 L10,5 L0,10 z', fill: m[1] }));
			defs.appendChild(mk);
		});
	}

	function edgePath(a, b) {
		if (b.layer === a.layer) {
			/* within a column: an arc on its right */
			const x1 = a.x + a.w, y1 = a.y + a.h / 2, x2 = b.x + b.w, y2 = b.y + b.h / 2;
			const bulge = Math.max(x1, x2) + 18 + Math.abs(y2 - y1) / 4;
			return 'M' + x1 + ',' + y1 + ' C' + bulge + ',' + y1 + ' ' + bulge + ',' + y2 + ' ' + x2 + ',' + y2;
		}
		if (b.layer > a.layer) {
			const x1 = a.x + a.w, y1 = a.y + a.h / 2, x2 = b.x, y2 = b.y + b.h / 2;
			const dx = (x2 - x1) / 2;
			return 'M' + x1 + ',' + y1 + ' C' + (x1 + dx) + ',' + y1 + ' ' + (x2 - dx) + ',' + y2 + ' ' + x2 + ',' + y2;
		}
		/* against the layers (a cycle's closing edge) or within one: a loop below */
		const x1 = a.x + a.w / 2, y1 = a.y + a.h, x2 = b.x + b.w / 2, y2 = b.y + b.h;
		const dip = Math.max(y1, y2) + 40 + Math.abs(x2 - x1) / 8;
		return 'M' + x1 + ',' + y1 + ' C' + x1 + ',' + dip + ' ' + x2 + ',' + dip + ' ' + x2 + ',' + y2;
	}

	function render(fit) {
		const nodes = [...view.shown];
		const edges = [];
		nodes.forEach((n) => out[n].forEach((e) => {
			if (view.shown.has(EDGES[e][E_TO]))
				edges.push(e);
		}));
		const L = layout(nodes, edges);
		clear(svgEl);
		nodeEls.clear();
		edgeEls.clear();
		const defs = svg('defs', {});
		markers(defs);
		svgEl.appendChild(defs);
		viewport = svg('g', { id: 'viewport' });
		svgEl.appendChild(viewport);
		$('view-title').textContent = view.title;
		$('hint').hidden = nodes.length > 0;
		const key = view.selNode >= 0 ? view.selNode : view.focus;
		edges.sort((x, y) => (x === view.selEdge) - (y === view.selEdge));
		edges.forEach((e) => {
			const a = L.xy[L.idx.get(EDGES[e][E_FROM])], b = L.xy[L.idx.get(EDGES[e][E_TO])];
			const bold = view.hi.has(e) || (view.hi.size === 0 && risky[e]);
			const faint = key >= 0 && !bold && e !== view.selEdge &&
				EDGES[e][E_FROM] !== key && EDGES[e][E_TO] !== key;
			const g = svg('g', { class: 'edge' + (bold ? ' bold' : '') + (faint ? ' faint' : '') +
				(e === view.selEdge ? ' selected' : '') });
			const d = edgePath(a, b);
			const t = svg('title', {});
			const site = EDGES[e][E_SITE];
			t.textContent = name(EDGES[e][E_FROM]) + ' \u2192 ' + name(EDGES[e][E_TO]) +
				(site >= 0 ? '\n' + SITES[site] : '');
			g.appendChild(t);
			g.appendChild(svg('path', { class: 'hit', d: d }));
			g.appendChild(svg('path', { class: 'line', d: d, 'marker-end': 'url(#' +
				(e === view.selEdge ? 'arrow-sel' : bold ? 'arrow-bold' : 'arrow') + ')' }));
			g.addEventListener('click', (ev) => {
				ev.stopPropagation();
				view.selEdge = e;
				view.selNode = -1;
				render(false);
				showEdge(e);
			});
			edgeEls.set(e, g);
			viewport.appendChild(g);
		});
		nodes.forEach((n, i) => {
			const p = L.xy[i], f = NODES[n][2];
			let cls = 'node';
			if (f & 1)
				cls += ' hard';
			else if (f & 4)
				cls += ' soft';
			if (f & 10)
				cls += ' unsafe';
			if (n === view.focus)
				cls += ' focus';
			if (n === view.selNode)
				cls += ' selected';
			const g = svg('g', { class: cls, transform: 'translate(' + p.x + ',' + p.y + ')' });
			g.dataset.node = n;
			const t = svg('title', {});
			t.textContent = name(n) + '\nusage ' + NODES[n][1] + '\n' + inn[n].length +
				' before it, ' + out[n].length + ' after it';
			g.appendChild(t);
			g.appendChild(svg('rect', { width: p.w, height: p.h, rx: 5 }));
			const txt = svg('text', { x: 10, y: p.h / 2 });
			txt.textContent = label(n);
			g.appendChild(txt);
			const more = hidden(n);
			if (more) {
				const m = svg('text', { class: 'more', x: p.w - 8, y: p.h / 2, 'text-anchor': 'end' });
				m.textContent = '+' + more;
				g.appendChild(m);
			}
			g.addEventListener('click', (ev) => {
				ev.stopPropagation();
				view.selNode = n;
				view.selEdge = -1;
				render(expand(n) > 0);	/* fit what was added */
				showNode(n);
			});
			nodeEls.set(n, g);
			viewport.appendChild(g);
		});
		if (fit && nodes.length) {
			let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
			L.xy.forEach((p) => {
				x0 = Math.min(x0, p.x);
				y0 = Math.min(y0, p.y);
				x1 = Math.max(x1, p.x + p.w);
				y1 = Math.max(y1, p.y + p.h + 60);
			});
			const r = svgEl.getBoundingClientRect();
			const W = r.width || 800, H = (r.height || 600) - 50;
			const k = Math.min(1.2, (W - 40) / (x1 - x0), (H - 40) / (y1 - y0));
			/* never too small to read: then the class clicked kept in sight */
			pan.k = Math.max(0.7, k);
			pan.x = (W - (x1 - x0) * pan.k) / 2 - x0 * pan.k;
			pan.y = 40 + (H - (y1 - y0) * pan.k) / 2 - y0 * pan.k;
			const c = L.idx.get(view.selNode >= 0 ? view.selNode : view.focus);
			if (k < pan.k && c !== undefined) {
				const p = L.xy[c];
				pan.x += Math.max(0, 20 - (p.x * pan.k + pan.x));
				pan.x -= Math.max(0, (p.x + p.w) * pan.k + pan.x - (W - 20));
			}
		}
		applyPan();
	}

	/* drag to pan, wheel to zoom about the pointer */
	let drag = null;
	svgEl.addEventListener('mousedown', (ev) => {
		drag = { x: ev.clientX - pan.x, y: ev.clientY - pan.y };
		svgEl.classList.add('dragging');
	});
	window.addEventListener('mousemove', (ev) => {
		if (!drag)
			return;
		pan.x = ev.clientX - drag.x;
		pan.y = ev.clientY - drag.y;
		applyPan();
	});
	window.addEventListener('mouseup', () => {
		drag = null;
		svgEl.classList.remove('dragging');
	});
	svgEl.addEventListener('wheel', (ev) => {
		ev.preventDefault();
		const r = svgEl.getBoundingClientRect();
		const mx = ev.clientX - r.left, my = ev.clientY - r.top;
		const k = Math.min(4, Math.max(0.1, pan.k * Math.exp(-ev.deltaY / 500)));
		pan.x = mx - (mx - pan.x) * k / pan.k;
		pan.y = my - (my - pan.y) * k / pan.k;
		pan.k = k;
		applyPan();
	}, { passive: false });

	/* ---- details ---- */

	function dl(rows) {
		const d = el('dl');
		rows.forEach((r) => {
			d.appendChild(el('dt', null, r[0]));
			const dd = el('dd', r[2] || null);
			if (r[1] instanceof Node)
				dd.appendChild(r[1]);
			else
				dd.textContent = r[1];
			d.appendChild(dd);
		});
		return d;
	}

	function classButton(n) {
		const b = el('button', 'link mono', name(n));
		b.type = 'button';
		b.addEventListener('click', () => {
			if (view.shown.size < MAX_SHOWN)
				view.shown.add(n);
			view.selNode = n;
			view.selEdge = -1;
			render(false);
			showNode(n);
		});
		return b;
	}

	function irqWords(f) {
		const w = [];
		if (f & 1) w.push('hardirq-safe');
		if (f & 2) w.push('hardirq-unsafe');
		if (f & 4) w.push('softirq-safe');
		if (f & 8) w.push('softirq-unsafe');
		return w.length ? w.join(', ') : 'none';
	}

	function neighbourList(title, edges, end) {
		const box = el('div');
		box.appendChild(el('h2', null, title + ' (' + edges.length + ')'));
		const ul = el('ul', 'nbrs');
		edges.slice(0, 40).forEach((e) => {
			const li = el('li');
			li.appendChild(classButton(EDGES[e][end]));
			ul.appendChild(li);
		});
		if (edges.length > 40)
			ul.appendChild(el('li', 'muted', (edges.length - 40) + ' more'));
		box.appendChild(ul);
		return box;
	}

	function showNode(n) {
		const body = $('detail-body');
		clear(body);
		body.appendChild(el('h2', null, 'Class'));
		body.appendChild(dl([
			['name', name(n), 'mono'],
			['usage', NODES[n][1], 'mono'],
			['irq', irqWords(NODES[n][2])],
			['hidden', hidden(n) + ' neighbours (click the class for more)'],
		]));
		body.appendChild(neighbourList('Held before it', inn[n], E_FROM));
		body.appendChild(neighbourList('Taken after it', out[n], E_TO));
	}

	function showEdge(e) {
		const x = EDGES[e];
		const body = $('detail-body');
		clear(body);
		body.appendChild(el('h2', null, 'Dependency'));
		const first = x[E_FIRST] >= 0 ? (x[E_FIRST] / 1e6).toFixed(6) + ' s after boot' +
			(D.boots.length > 1 ? ' (' + bootName(x[E_INFO_BOOT]) + ')' : '') :
			'unknown (no event stream)';
		body.appendChild(dl([
			['held', classButton(x[E_FROM])],
			['taken', classButton(x[E_TO])],
			['kind', x[E_DEPS] || 'unknown', 'mono'],
			['distance', x[E_DIST] >= 0 ? String(x[E_DIST]) : 'unknown'],
			['boots', x[E_BOOTS].map(bootName).join(', ')],
			['site', x[E_SITE] >= 0 ? SITES[x[E_SITE]] : 'unknown', 'mono'],
			['first seen', first],
		]));
		body.appendChild(el('h2', null, 'Stack (where it was taken)'));
		if (x[E_STACK] >= 0) {
			const ol = el('ol', 'stack');
			if (!stacks)
				stacks = JSON.parse($('graph-stacks').textContent);
			stacks.stacks[x[E_STACK]].forEach((s) =>
				ol.appendChild(el('li', null, stacks.frames[s])));
			body.appendChild(ol);
		} else {
			body.appendChild(el('p', 'muted', 'none stored'));
		}
	}

	/* A step along a long chain: to the stretch before, or after. */
	function stepButton(dir) {
		const c = view.chain, at = c.at + dir * STRETCH;
		const from = Math.max(0, Math.min(at, c.edges.length - STRETCH));
		const b = el('button', 'link ' + (dir < 0 ? 'chain-earlier' : 'chain-later'),
			(dir < 0 ? '\u25c0 dependencies ' : 'dependencies ') + (from + 1) + '\u2013' +
			(from + STRETCH) + (dir < 0 ? '' : ' \u25b6'));
		b.type = 'button';
		b.addEventListener('click', () => chainView(c.edges, c.title, at));
		return b;
	}

	/* A cycle's, a path's or a report's dependencies, each with its site. */
	function showEdges(title, edges) {
		const body = $('detail-body');
		clear(body);
		body.appendChild(el('h2', null, 'Dependencies'));
		body.appendChild(el('p', null, title));
		if (view.chain) {
			/* above the list, where the reader looks first */
			const steps = el('p', 'chain-steps');
			if (view.chain.at > 0)
				steps.appendChild(stepButton(-1));
			if (view.chain.at + STRETCH < view.chain.edges.length)
				steps.appendChild(stepButton(1));
			body.appendChild(steps);
		}
		const ol = el('ol', 'stack');
		edges.forEach((e) => {
			const li = el('li');
			const b = el('button', 'link mono', name(EDGES[e][E_FROM]) + ' \u2192 ' + name(EDGES[e][E_TO]));
			b.type = 'button';
			b.addEventListener('click', () => {
				view.selEdge = e;
				view.selNode = -1;
				render(false);
				showEdge(e);
			});
			li.appendChild(b);
			const site = EDGES[e][E_SITE];
			li.appendChild(el('div', 'muted', site >= 0 ? 'at ' + SITES[site] : 'site unknown'));
			ol.appendChild(li);
		});
		body.appendChild(ol);
	}

	/* ---- the side lists ---- */

	function fillList(ol, items, count, make) {
		clear(ol);
		count.textContent = '(' + items.length + ')';
		items.slice(0, MAX_LIST).forEach((it, i) => {
			const li = make(it, i);
			li.addEventListener('click', () => {
				ol.querySelectorAll('li.active').forEach((a) => a.classList.remove('active'));
				li.classList.add('active');
			});
			ol.appendChild(li);
		});
		if (items.length > MAX_LIST)
			ol.appendChild(el('li', 'muted', (items.length - MAX_LIST) + ' more'));
		if (!items.length)
			ol.appendChild(el('li', 'muted', 'none'));
	}

	function pathItem(tag, edges, title) {
		const li = el('li');
		if (tag)
			li.appendChild(el('span', 'tag', tag));
		li.appendChild(document.createTextNode(pathText(edges)));
		li.addEventListener('click', () => chainView(edges, title, 0));
		return li;
	}

	fillList($('cycles'), D.cycles, $('cycles-count'), (c, i) =>
		pathItem(c[0] ? 'cross-boot' : '', c.slice(1), 'cycle ' + (i + 1) +
			(c[0] ? ': no single boot saw it whole' : '')));
	fillList($('irq'), D.irq, $('irq-count'), (p, i) =>
		pathItem(p[0], p.slice(1), p[0] + '-safe \u2192 ' + p[0] + '-unsafe path ' + (i + 1)));
	fillList($('reports'), D.reports, $('reports-count'), (r) => {
		const li = el('li', null, '#' + r[0] + ' ' + r[3]);
		li.addEventListener('click', () => {
			const nodes = r[4], edges = [];
			const set = new Set(nodes);
			nodes.forEach((n) => out[n].forEach((e) => {
				if (set.has(EDGES[e][E_TO]))
					edges.push(e);
			}));
			setView(nodes, edges, 'report #' + r[0] + ' (' + r[2] + ', ' + bootName(r[1]) +
				'): ' + r[3] + (nodes.length ? '' : ' \u2014 none of its locks is a class of this graph'));
		});
		return li;
	});

	/* ---- search ---- */

	function matches(q) {
		q = q.trim().toLowerCase();
		if (!q)
			return [];
		const hits = [];
		for (let n = 0; n < N; n++)
			if (lower[n].includes(q))
				hits.push(n);
		const rank = (n) => lower[n] === q ? 0 : lower[n].startsWith(q) ? 1 : 2;
		return hits.sort((a, b) => rank(a) - rank(b) || lower[a].length - lower[b].length);
	}

	$('search').addEventListener('input', () => {
		const ol = $('search-results');
		const hits = matches($('search').value);
		clear(ol);
		hits.slice(0, 60).forEach((n) => {
			const li = el('li', null, name(n));
			li.dataset.node = n;
			li.addEventListener('click', () => focusClass(n));
			ol.appendChild(li);
		});
		if (hits.length > 60)
			ol.appendChild(el('li', 'muted', (hits.length - 60) + ' more'));
		if ($('search').value.trim() && !hits.length)
			ol.appendChild(el('li', 'muted', 'no class matches'));
	});

	/* ---- path finder: breadth-first, along the dependencies ---- */

	function resolve(text) {
		if (byName.has(text))
			return { n: byName.get(text) };
		const hits = matches(text);
		if (hits.length === 1 || (hits.length && lower[hits[0]] === text.trim().toLowerCase()))
			return { n: hits[0] };
		return { why: hits.length ? 'several classes match \u201c' + text + '\u201d: ' +
			hits.slice(0, 3).map(name).join(', ') + (hits.length > 3 ? ', \u2026' : '') :
			'no class matches \u201c' + text + '\u201d' };
	}

	function bfs(a, b) {
		const via = new Int32Array(N).fill(-2);
		via[a] = -1;
		const q = [a];
		for (let h = 0; h < q.length && via[b] === -2; h++)
			for (const e of out[q[h]]) {
				const w = EDGES[e][E_TO];
				if (via[w] === -2) {
					via[w] = e;
					q.push(w);
				}
			}
		if (via[b] === -2)
			return null;
		const path = [];
		for (let v = b; via[v] >= 0; v = EDGES[via[v]][E_FROM])
			path.unshift(via[v]);
		return path;
	}

	function findPath() {
		const res = $('path-result');
		const a = resolve($('path-from').value), b = resolve($('path-to').value);
		if (a.why || b.why) {
			res.textContent = a.why || b.why;
			return;
		}
		const p = a.n === b.n ? null : bfs(a.n, b.n);
		if (p) {
			res.textContent = p.length + ' dependenc' + (p.length === 1 ? 'y' : 'ies') + ': ' + pathText(p);
			chainView(p, 'path ' + name(a.n) + ' \u2192 ' + name(b.n), 0);
			return;
		}
		const r = a.n === b.n ? null : bfs(b.n, a.n);
		res.textContent = 'no path from ' + name(a.n) + ' to ' + name(b.n) +
			(r ? '; the other way: ' + r.length + ' dependencies: ' + pathText(r) : '');
		if (r)
			chainView(r, 'path ' + name(b.n) + ' \u2192 ' + name(a.n), 0);
	}

	$('path-find').addEventListener('click', findPath);
	['path-from', 'path-to'].forEach((id) => $(id).addEventListener('keydown', (ev) => {
		if (ev.key === 'Enter')
			findPath();
	}));
	const dlist = $('class-names');
	NODES.slice(0, 20000).forEach((n) => {
		const o = document.createElement('option');
		o.value = n[0];
		dlist.appendChild(o);
	});

	/* ---- start ---- */

	document.title = 'lockdep explorer: ' + D.title;
	$('title').textContent = 'lockdep explorer';
	$('summary').textContent = D.title + ' \u2014 ' + N + ' classes, ' + EDGES.length +
		' dependencies, ' + D.cycles.length + ' cycles, ' + D.irq.length + ' irq paths' +
		(D.note ? ' \u2014 ' + D.note : '');
	/* the --class, else the first cycle, irq path, or the busiest class */
	if (D.focus >= 0) {
		focusClass(D.focus);
	} else if (D.cycles.length) {
		$('cycles').firstChild.click();
	} else if (D.irq.length) {
		$('irq').firstChild.click();
	} else if (N) {
		let busiest = 0;
		for (let n = 1; n < N; n++)
			if (out[n].length + inn[n].length > out[busiest].length + inn[busiest].length)
				busiest = n;
		focusClass(busiest);
	} else {
		render(true);
	}
	/* since the navigation started, and of that this script's run */
	document.body.dataset.loadMs = performance.now().toFixed(1);
	document.body.dataset.scriptMs = (performance.now() - t0).toFixed(1);

	/* ---- #selftest=...: the page driven as a reader would, for the tool test ---- */

	function click(e) {
		e.dispatchEvent(new MouseEvent('click', { bubbles: true }));
	}

	function selftest(spec) {
		const lines = [];
		spec.split(',').forEach((step) => {
			const colon = step.indexOf(':');
			const cmd = step.slice(0, colon), arg = step.slice(colon + 1);
			try {
				if (cmd === 'search') {
					const q = decodeURIComponent(arg);
					$('search').value = q;
					$('search').dispatchEvent(new Event('input'));
					const li = [...$('search-results').children].filter((x) => x.dataset.node);
					const hit = li.some((x) => x.textContent === q);
					lines.push('search ' + q + ': ' + (hit ? 'ok' : 'FAIL') + ' ' + li.length + ' results');
				} else if (cmd === 'expand') {
					const q = decodeURIComponent(arg);
					const n = byName.get(q);
					const li = [...$('search-results').children].find((x) => x.dataset.node === String(n));
					if (li)
						click(li);
					const before = view.shown.size, more = hidden(n);
					const g = nodeEls.get(n);
					if (g)
						click(g);
					const after = view.shown.size;
					const ok = g && (after > before || !more);
					lines.push('expand ' + q + ': ' + (ok ? 'ok' : 'FAIL') + ' shown ' + before + ' then ' + after);
				} else if (cmd === 'path') {
					const ab = arg.split('+').map(decodeURIComponent);
					$('path-from').value = ab[0];
					$('path-to').value = ab[1];
					click($('path-find'));
					const txt = $('path-result').textContent;
					const ok = /^\d+ dependenc/.test(txt);
					lines.push('path ' + ab[0] + ' > ' + ab[1] + ': ' + (ok ? 'ok' : 'FAIL') + ' ' + txt);
				} else if (cmd === 'edge') {
					const ab = arg.split('+').map(decodeURIComponent);
					const a = byName.get(ab[0]), b = byName.get(ab[1]);
					const e = out[a].find((x) => EDGES[x][E_TO] === b);
					if (!view.shown.has(a) || !view.shown.has(b)) {
						view.shown.add(a);
						view.shown.add(b);
						render(true);
					}
					click(edgeEls.get(e));
					const dd = [...$('detail-body').querySelectorAll('dd')].map((x) => x.textContent);
					const frames = $('detail-body').querySelectorAll('ol.stack li').length;
					const ok = view.selEdge === e && dd[0] === ab[0] && dd[1] === ab[1];
					lines.push('edge ' + ab[0] + ' > ' + ab[1] + ': ' + (ok ? 'ok' : 'FAIL') +
						' site ' + dd[5] + '; first seen ' + dd[6] + '; ' + frames + ' frames');
				} else if (cmd === 'report') {
					const li = [...$('reports').children].find((x) =>
						x.textContent.startsWith('#' + arg + ' '));
					if (li)
						click(li);
					lines.push('report ' + arg + ': ' + (li ? 'ok' : 'FAIL no such report'));
				} else if (cmd === 'view') {
					lines.push('view: ' + nodeEls.size + ' classes, ' + edgeEls.size +
						' dependencies drawn, ' +
						$('detail-body').querySelectorAll('ol.stack > li').length +
						' listed; ' + $('view-title').textContent);
				} else if (cmd === 'later') {
					const b = $('detail-body').querySelector('button.chain-later');
					if (b)
						click(b);
					const t = $('view-title').textContent;
					const m = /: (dependencies \d+\u2013\d+ of \d+) drawn/.exec(t);
					lines.push('later: ' + (b && m ? 'ok ' + m[1] : 'FAIL ' + t));
				} else {
					lines.push(step + ': FAIL unknown step');
				}
			} catch (err) {
				lines.push(step + ': FAIL ' + err);
			}
		});
		const pre = $('selftest-result');
		pre.textContent = lines.join('\n') + '\n';
		pre.hidden = false;
	}

	const m = /(?:^#|&)selftest=([^&]*)/.exec(location.hash);
	if (m)
		selftest(m[1]);
})();
