"""One self-contained HTML page (`--format html`): summary, the entry x mode matrix, each failure
with its chain, and a picture (inline SVG) of each import cycle that a failure closes.

No external assets and no JavaScript: inline CSS, inline SVG, anchors and <details>.
"""
from __future__ import annotations

import math
from html import escape as _html_escape

from ..model import ALL_MODES, Report, Result
from .groups import cycle_of
from .json import _rel
from .source import binding_hint, printable, source_line as _source_line

OUTCOME_CLASS = {"ok": "ok", "error": "error", "unknown": "unknown", "timeout": "timeout",
                 "crash": "crash"}

CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;
color:#1f2328;background:#fff;max-width:1150px}
h1{font-size:22px;margin:0 0 6px}h2{font-size:18px;margin:28px 0 10px;
border-bottom:1px solid #d0d7de;padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
.summary span{display:inline-block;margin-right:14px;padding:2px 8px;border-radius:10px}
.meta{color:#57606a;margin-bottom:8px}
table.matrix{border-collapse:collapse}
.matrix th,.matrix td{border:1px solid #d0d7de;padding:3px 10px;text-align:left}
.matrix thead th{background:#f6f8fa}
.matrix td.cell{text-align:center;min-width:110px}
.matrix td.cell a{color:inherit;font-weight:600}
.ok{background:#dafbe1;color:#116329}.error{background:#ffd8d3;color:#a40e26}
.unknown{background:#fff4c2;color:#7d4e00}.timeout{background:#ffe2c2;color:#953800}
.crash{background:#eddcff;color:#6e40c9}.waived{background:#eaeef2;color:#57606a}
.missing{background:#fff;color:#8c959f}
.failure{border:1px solid #d0d7de;border-radius:6px;padding:8px 14px;margin:12px 0}
.failure .msg{color:#a40e26;font-weight:600}
ol.chain{margin:6px 0;padding-left:22px}ol.chain li{margin:2px 0}
.src{color:#57606a}.bound{color:#116329}
.cycle{border:1px solid #d0d7de;border-radius:6px;padding:8px 14px;margin:12px 0}
.cycle svg{display:block;max-width:100%;height:auto}
.line{color:#57606a}.cycle h3,.failure h3{margin-top:8px}
"""


def escape(text, quote: bool = True) -> str:
    """HTML-escaped, and printable (source.py): the tree's names and lines may hold control
    and bidirectional characters."""
    return _html_escape(printable(str(text)), quote=quote)


def _by_site(failing: list[Result]) -> list[list[Result]]:
    """Failures grouped by where they happen (file, line, exception, module, name), in order
    of first appearance; each group's shortest chain first."""
    groups: dict[tuple, list[Result]] = {}
    for r in failing:
        e = r.error
        site = (e.chain[-1].file, e.chain[-1].line, e.exception, e.module, e.name) \
            if e is not None and e.chain else (r.outcome, r.reason, r.entry, r.mode)
        groups.setdefault(site, []).append(r)
    return [sorted(g, key=lambda r: len(r.error.chain) if r.error else 0)
            for g in groups.values()]


def _anchor(r: Result) -> str:
    return f"r-{r.entry}-{r.mode}"


def _modes(report: Report) -> list[str]:
    seen = list(dict.fromkeys(r.mode for r in report.results))
    return [m for m in ALL_MODES if m in seen] + [m for m in seen if m not in ALL_MODES]


def _cell_text(r: Result) -> str:
    if r.outcome == "error" and r.error is not None:
        text = r.error.exception
    else:
        text = r.outcome
    return f"{text} ({r.waived})" if r.waived else text


def _short(name: str, top: str) -> str:
    return name[len(top) + 1:] if name.startswith(top + ".") else name


# ---- the cycle picture ---------------------------------------------------------------------

CHAR_W, NODE_H = 7.8, 28


def _trim(cx: float, cy: float, w: float, h: float, tx: float, ty: float, pad: float = 4):
    """The point where the segment from the centre of a w x h box at (cx, cy) towards (tx, ty)
    leaves the box (plus `pad`)."""
    dx, dy = tx - cx, ty - cy
    if dx == 0 and dy == 0:
        return cx, cy
    hw, hh = w / 2 + pad, h / 2 + pad
    t = min(hw / abs(dx) if dx else math.inf, hh / abs(dy) if dy else math.inf)
    return cx + dx * t, cy + dy * t


def _label(x: float, y: float, text: str, cls: str, anchor: str = "middle") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" class="{cls}" '
            f'dominant-baseline="middle">{escape(text)}</text>')


def cycle_svg(cycle: tuple[str, ...], r: Result, uid: str) -> str:
    """Modules on a circle, an arrow per import in chain order, the failing edge (back into
    the partially initialised module) in red with a label."""
    e = r.error
    top = e.chain[0].module.partition(".")[0]
    start = len(e.chain) - len(cycle)
    frames = e.chain[start:]
    labels = [_short(m, top) for m in cycle]
    widths = [max(60.0, len(s) * CHAR_W + 22) for s in labels]
    n = len(cycle)
    radius = 0.0 if n == 1 else max(95.0, 26.0 * n + max(widths) * 0.25)
    margin_x = max(widths) / 2 + 20
    fail_text = f"line {frames[-1].line}: needs '{e.name}' from partial {labels[0]}" \
        if e.name else f"line {frames[-1].line}: {e.exception}"
    cx, cy = radius + margin_x, radius + NODE_H / 2 + 40
    pos = []
    for i in range(n):
        a = -math.pi / 2 + 2 * math.pi * i / n
        pos.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    aria = escape("import cycle: " + " -> ".join(cycle + cycle[:1]))
    out = ['<svg xmlns="http://www.w3.org/2000/svg" class="cycle-svg" {vb} role="img" '
           f'aria-label="{aria.replace("{", "{{").replace("}", "}}")}">',
           "<style>"
           ".node rect{fill:#ddf4ff;stroke:#0969da;stroke-width:1.5}"
           ".node.partial rect{fill:#fff1f0;stroke:#cf222e;stroke-width:2}"
           ".node text{font:13px ui-monospace,Menlo,Consolas,monospace;fill:#1f2328}"
           ".edge{fill:none;stroke:#57606a;stroke-width:1.6}"
           ".edge.failing{stroke:#cf222e;stroke-width:2.6;stroke-dasharray:7 4}"
           ".elabel{font:11px system-ui,sans-serif;fill:#57606a;paint-order:stroke;"
           "stroke:#fff;stroke-width:4px;stroke-linejoin:round}"
           ".elabel.failing{fill:#cf222e;font-weight:700;font-size:12px}"
           "</style>",
           "<defs>"
           f'<marker id="{uid}-a" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" '
           'markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
           'fill="#57606a"/></marker>'
           f'<marker id="{uid}-f" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
           'fill="#cf222e"/></marker>'
           "</defs>"]
    edges = []
    for i in range(n):
        j = (i + 1) % n
        failing = i == n - 1
        text = fail_text if failing else f"line {frames[i].line}"
        edges.append((i, j, failing, text))
    placed = []
    for i, j, failing, text in edges:
        cls = "edge failing" if failing else "edge"
        marker = f"url(#{uid}-f)" if failing else f"url(#{uid}-a)"
        tip = f"{cycle[i]} -> {cycle[j]}"
        if n == 1:  # a module importing itself: a loop above the node
            x, y = pos[0]
            hw = widths[0] / 2
            d = (f"M{x + hw * 0.4:.1f},{y - NODE_H / 2 - 3:.1f} C{x + hw * 0.6:.1f},"
                 f"{y - NODE_H * 2.4:.1f} {x - hw * 0.6:.1f},{y - NODE_H * 2.4:.1f} "
                 f"{x - hw * 0.4:.1f},{y - NODE_H / 2 - 3:.1f}")
            lx, ly = x, y - NODE_H * 2.2
        else:
            (x1, y1), (x2, y2) = pos[i], pos[j]
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            # bend each edge outwards from the centre (two nodes: the two edges apart)
            ox, oy = mx - cx, my - cy
            norm = math.hypot(ox, oy)
            if norm < 1e-6:  # n == 2: the segment crosses the centre; bend sideways
                ox, oy = -(y2 - y1), x2 - x1
                norm = math.hypot(ox, oy)
            bend = 0.22 * math.hypot(x2 - x1, y2 - y1)
            qx, qy = mx + ox / norm * bend, my + oy / norm * bend
            sx, sy = _trim(x1, y1, widths[i], NODE_H, qx, qy)
            ex, ey = _trim(x2, y2, widths[j], NODE_H, qx, qy, pad=6)
            d = f"M{sx:.1f},{sy:.1f} Q{qx:.1f},{qy:.1f} {ex:.1f},{ey:.1f}"
            # the label at the curve's midpoint, pushed a little further out
            lx = 0.25 * x1 + 0.5 * qx + 0.25 * x2 + ox / norm * 14
            ly = 0.25 * y1 + 0.5 * qy + 0.25 * y2 + oy / norm * 14
        out.append(f'<path class="{cls}" d="{d}" marker-end="{marker}">'
                   f"<title>{escape(tip)}</title></path>")
        placed.append((failing, text, lx, ly))
    boxes = [(x - w / 2, y - NODE_H / 2, x + w / 2, y + NODE_H / 2)
             for (x, y), w in zip(pos, widths)]
    for failing, text, lx, ly in placed:  # labels above every edge, outside the circle
        tw = len(text) * (6.9 if failing else 6.2)
        if n > 1 and lx < cx - 8:
            anchor, x0 = "end", lx - tw
        elif n > 1 and lx > cx + 8:
            anchor, x0 = "start", lx
        else:
            anchor, x0 = "middle", lx - tw / 2
        boxes.append((x0, ly - 9, x0 + tw, ly + 9))
        out.append(_label(lx, ly, text, "elabel failing" if failing else "elabel", anchor))
    for k, (x, y) in enumerate(pos):
        cls = "node partial" if k == 0 else "node"
        w = widths[k]
        out.append(f'<g class="{cls}"><title>{escape(cycle[k])}</title>'
                   f'<rect x="{x - w / 2:.1f}" y="{y - NODE_H / 2:.1f}" width="{w:.1f}" '
                   f'height="{NODE_H}" rx="6"/>{_label(x, y + 1, labels[k], "")}</g>')
    x0 = min(b[0] for b in boxes) - 12
    y0 = min(b[1] for b in boxes) - 12
    w = max(b[2] for b in boxes) + 12 - x0
    h = max(b[3] for b in boxes) + 12 - y0
    out[0] = out[0].format(vb=f'width="{w:.0f}" height="{h:.0f}" '
                              f'viewBox="{x0:.0f} {y0:.0f} {w:.0f} {h:.0f}"')
    out.append("</svg>")
    return "".join(out)


# ---- the page ------------------------------------------------------------------------------

def _matrix(report: Report, modes: list[str]) -> str:
    by_pair = {(r.entry, r.mode): r for r in report.results}
    entries = list(dict.fromkeys(r.entry for r in report.results))
    rows = ['<table class="matrix" id="matrix"><thead><tr><th>entry</th>',
            *(f"<th>{escape(m)}</th>" for m in modes), "</tr></thead><tbody>"]
    for entry in entries:
        rows.append(f'<tr><th class="mono">{escape(entry)}</th>')
        for m in modes:
            r = by_pair.get((entry, m))
            if r is None:
                rows.append('<td class="cell missing">&mdash;</td>')
                continue
            cls = "waived" if r.waived else OUTCOME_CLASS.get(r.outcome, "unknown")
            text = escape(_cell_text(r))
            title = escape(r.error.message if r.error else (r.reason or r.outcome), quote=True)
            if r.outcome != "ok":
                text = f'<a href="#{escape(_anchor(r), quote=True)}">{text}</a>'
            rows.append(f'<td class="cell {cls}" data-outcome="{escape(r.outcome)}" '
                        f'data-mode="{escape(m)}" title="{title}">{text}</td>')
        rows.append("</tr>")
    rows.append("</tbody></table>")
    return "".join(rows)


def _loc(path: str, line: int, base: str | None) -> str:
    src = _source_line(path, line)
    out = f'<code>{escape(_rel(path, base))}:{line}</code>'
    if src:
        out += f' <code class="src">{escape(src)}</code>'
    return out


def _result_html(r: Result, base: str | None) -> str:
    if r.error is None:
        return (f'<p class="msg">{escape(r.outcome)}: {escape(r.reason or "")}</p>')
    e = r.error
    parts = [f'<p class="msg">{escape(e.exception)}: {escape(e.message)}</p>',
             '<ol class="chain">']
    for f in e.chain:
        parts.append(f"<li><code><b>{escape(f.module)}</b></code> &nbsp;"
                     f"{_loc(f.file, f.line, base)}</li>")
    parts.append("</ol>")
    if e.defined_at is not None:
        path, line, said = binding_hint(e.name, *e.defined_at)
        parts.append(f'<p class="bound">{escape(said)} {_loc(path, line, base)}</p>')
    return "".join(parts)


def _failures(report: Report, base: str | None) -> str:
    failing = [r for r in report.results if r.outcome != "ok"]
    if not failing:
        return "<p>No failing first imports.</p>"
    out = []
    for k, group in enumerate(_by_site(failing)):
        first = group[0]
        title = (f"{first.error.exception} at {_rel(first.error.chain[-1].file, base)}:"
                 f"{first.error.chain[-1].line}" if first.error and first.error.chain
                 else f"{first.outcome}: {first.entry} [{first.mode}]")
        out.append(f'<div class="failure" id="site-{k}"><h3>{escape(title)}</h3>')
        for i, r in enumerate(group):
            waived = f" ({escape(r.waived)})" if r.waived else ""
            head = (f'<span id="{escape(_anchor(r), quote=True)}"><code><b>import '
                    f'{escape(r.entry)}</b></code> [{escape(r.mode)}]{waived}</span>')
            if i == 0:
                out.append(f"<p>{head}</p>{_result_html(r, base)}")
            else:  # the same site from another entry: folded
                out.append(f"<details><summary>{head}</summary>{_result_html(r, base)}"
                           "</details>")
        out.append("</div>")
    return "".join(out)


def _cycles(report: Report) -> str:
    seen: dict[tuple[str, ...], list[Result]] = {}
    for r in report.results:
        if r.outcome == "ok":
            continue
        c = cycle_of(r)
        if c is not None:
            seen.setdefault(c, []).append(r)
    if not seen:
        return "<p>No import cycles among the failures.</p>"
    out = []
    for k, (cycle, rs) in enumerate(seen.items()):
        r = rs[0]
        top = r.error.chain[0].module.partition(".")[0]
        line = " -> ".join(_short(m, top) for m in cycle + cycle[:1])
        who = ", ".join(f'<a href="#{escape(_anchor(x), quote=True)}">{escape(x.entry)} '
                        f"[{escape(x.mode)}]</a>" for x in rs)
        out.append(f'<div class="cycle" id="cycle-{k}"><h3><code>{escape(line)}</code></h3>'
                   f"<p>closed by: {who}. The red edge is the import that finds "
                   f"<code>{escape(cycle[0])}</code> partially initialised.</p>"
                   f"{cycle_svg(cycle, r, f'c{k}')}</div>")
    return "".join(out)


def _diagnostics(report: Report, base: str | None) -> str:
    if not report.diagnostics:
        return ""
    rows = ["<h2>Diagnostics</h2><table class=\"matrix\"><thead><tr><th>code</th><th>where</th>"
            "<th>message</th></tr></thead><tbody>"]
    for d in report.diagnostics:
        rows.append(f"<tr><td><code>{escape(d.code)}</code> {escape(d.name)}</td>"
                    f"<td><code>{escape(_rel(d.file, base))}:{d.line}</code></td>"
                    f"<td>{escape(d.message)}</td></tr>")
    rows.append("</tbody></table>")
    return "".join(rows)


def render(report: Report, base: str | None = None) -> str:
    modes = _modes(report)
    entries = len({r.entry for r in report.results})
    active = [r for r in report.results if r.waived is None]
    n_ok = sum(r.outcome == "ok" for r in active)
    n_fail = sum(r.outcome in ("error", "timeout", "crash") for r in active)
    n_unk = sum(r.outcome == "unknown" for r in active)
    n_waived = len(report.results) - len(active)
    roots = ", ".join(_rel(p, base) for p in report.roots)
    summary = (f'<p class="summary"><span class="ok">{n_ok} ok</span>'
               f'<span class="error">{n_fail} failing</span>'
               f'<span class="unknown">{n_unk} unknown</span>'
               + (f'<span class="waived">{n_waived} waived</span>' if n_waived else "")
               + "</p>")
    status = "FAILED" if report.failed else "passed"
    return "".join([
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        f"<title>importsafe report: {status}</title><style>{CSS}</style></head><body>",
        f"<h1>importsafe report: {status}</h1>",
        f'<p class="meta">{entries} entries &times; modes {escape(", ".join(modes))}; '
        f"source: {escape(report.source)}" + (f"; roots: {escape(roots)}" if roots else "")
        + "</p>",
        summary,
        "<h2>Entry &times; mode</h2>", _matrix(report, modes),
        "<h2>Import cycles</h2>", _cycles(report),
        "<h2>Failures</h2>", _failures(report, base),
        _diagnostics(report, base),
        "</body></html>\n",
    ])
