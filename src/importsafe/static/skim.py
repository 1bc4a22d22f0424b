"""Function bodies cut out of a module's source before it is parsed (the cold check's parse).

Importing a module runs its top level and its class bodies, never a function body: the fact
extractor keeps functions as stubs and loads a body only when a call at import time runs it.
Yet `ast.parse` builds every body, about four fifths of a typical module's nodes. `skim`
replaces each function body by one `pass` with the same number of lines, so line and column
numbers of everything else are unchanged and only what the extractor reads is built.

Cutting a body also cuts any syntax error in it. So only a source that is known to compile may
be skimmed (the caller's proof: bytecode.compiled_before), and `cuts_hold` checks on the
parsed tree that every cut left exactly a `pass` body where it was made. What the scanner cannot
be sure of keeps its text: a body whose end lies inside brackets or after a backslash, or one
on the line of its `def`; the whole file, if it has tabs or form feeds in indentation, a `\\r`,
or a quote the scanner could not pair with its string.

A hand-written scanner (regular expressions over bytes, with strings and comments masked)
because no tokenizer is cheaper than the parse it would save: `tokenize` makes one Python
object per token.
"""
from __future__ import annotations

import ast
import re
from functools import lru_cache

# a string (single or triple quoted, escapes and backslash-newlines inside; a prefix such as
# rb stays, as letters) or a comment; masked before the structure is read, so that nothing
# inside one counts. Escapes end no string, raw or not, as in CPython's tokenizer
_STRING_OR_COMMENT = re.compile(
    rb"#[^\n]*"
    rb'|"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""'
    rb"|'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''"
    rb'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
    rb"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'", re.S)
# a string's text after its first byte: \x01, newlines kept. A line that starts inside a string
# then starts with \x01 and is no statement; its first byte keeps a string statement visible
_FILL = bytes(10 if i == 10 else 1 for i in range(256))
# the keyword of a def statement, if only spaces or `async` come before it on its line (checked
# apart: a pattern that opens with `\n`, `^` or `\b` is tried at every byte, ten times slower)
_DEF = re.compile(rb"def[ \t]")
_ASYNC = re.compile(rb" *async[ \t]+")
_HEADER = re.compile(rb"[()\[\]{}:]")
_UNSURE_INDENT = re.compile(rb"(?:^|\n) *[\t\f]")
_OPEN, _CLOSE = b"([{", b")]}"


def _mask(match: re.Match) -> bytes:
    text = match.group()
    if text[0] == 35:  # "#": a comment is blank
        return b" " * len(text)
    return b"x" + text[1:].translate(_FILL)


def masked(source: bytes) -> bytes | None:
    """`source` with strings and comments masked, byte for byte; None when the scanner could
    not read it surely."""
    if b"\r" in source:
        return None
    text = _STRING_OR_COMMENT.sub(_mask, source)
    if b'"' in text or b"'" in text:
        return None
    if (b"\t" in text or b"\f" in text) and _UNSURE_INDENT.search(text):
        return None
    return text


@lru_cache(maxsize=None)
def _dedent(indent: int) -> re.Pattern:
    """The newline before the next statement line indented `indent` columns or fewer."""
    return re.compile(rb"\n {0,%d}(?=[^ \n\x01])" % indent)


def skim(source: bytes, keep: frozenset[int] = frozenset()
         ) -> tuple[bytes, tuple[tuple[int, int], ...], bool, tuple] | None:
    """(the source with every function body that is not inside another cut to `pass`, the
    cuts as (line of the def, line of its `pass`), whether parameter lists were emptied on
    the word of a `from __future__ import annotations`, the spans of the cut defs at the
    start of a line as def_spans gives them but flat: (line, start, end) each), or None when
    nothing was cut. The bodies of the defs on the lines in `keep` stay whole, with every
    def inside them.

    The def of a cut body also loses what its header holds that is never evaluated: `def
    f(self, x: int) -> str:` becomes `def f():`, its newlines kept inside the brackets.
    Defining a function evaluates its decorators, defaults and, unless annotations are
    postponed, its annotations; so a parameter list goes only when it has no `=`, and, in a
    module without the future import, no `:`, and the return annotation goes only with the
    future import. The extractor reads nothing else of a header whose body is cut (a stub:
    name and line), so the skeleton parses faster. The caller checks the
    third item against the parsed tree (a wrong guess would drop evaluated annotations)."""
    text = masked(source)
    if text is None:
        return None
    text = b"\n" + text  # every def line follows a newline; offsets in text are one more
    future = _postponed(text)
    pieces: list[bytes] = []
    cuts: list[tuple[int, int]] = []
    spans: list[tuple[int, int, int]] = []
    done = 0  # source[:done] is in pieces
    count = text.count
    for start, eol, end, indent, def_line, header in _bodies(text):
        if def_line in keep:
            continue
        if not indent:  # a module-level function: its body may be loaded alone later
            spans.append((def_line, start, end - 1))
        pass_line = def_line + count(b"\n", start + 1, eol) + 1
        span = _unevaluated(text, header, future)
        if span is not None:  # text[opened:upto] goes: source[opened - 1:upto - 1]
            opened, upto = span
            pieces += (source[done:opened - 1], b"\n" * count(b"\n", opened, upto))
            if future:
                pieces.append(b")")  # it went with the return annotation
            done = upto - 1
        pieces += (source[done:eol], b" " * (indent + 1), b"pass",
                   b"\n" * count(b"\n", eol + 1, end))
        cuts.append((def_line, pass_line))
        done = end - 1
    if not cuts:
        return None
    pieces.append(source[done:])  # text[i] is source[i - 1]
    return b"".join(pieces), tuple(cuts), future, tuple(spans)


# `from __future__ import ...` at the start of a line of the masked text (so a statement:
# a source that compiles has it at the top, never in brackets) and the names it imports
_FUTURE = re.compile(rb"\nfrom[ \t]+__future__[ \t]+import[ \t]*(\([^)]*\)|[^\n]*)")


def _postponed(text: bytes) -> bool:
    """Does the masked text import `annotations` from `__future__`? (A name imported under
    an alias counts too, `annotations as x`; `generators as annotations` does not.)"""
    for found in _FUTURE.finditer(text):
        for name in found.group(1).strip(b"()").split(b","):
            words = name.split()
            if words and words[0] == b"annotations":
                return True
    return False


def _unevaluated(text: bytes, header: tuple[int, int], future: bool
                 ) -> tuple[int, int] | None:
    """(offset after the def's opening bracket, offset of what stays after the part of its
    header that is never evaluated: its colon with `future`, else its closing bracket), or
    None when all of it may be. `header`: offsets of the def's name (or the blanks before
    it) and of the colon that ends the header. Finds, does not parse: the first `(` opens
    the parameters unless a `[` (type parameters) comes before it, and the last `)` before
    the colon, or before `->`, closes them (only blanks may come between)."""
    at, colon = header
    opened = text.find(b"(", at, colon) + 1
    if not opened or text.find(b"[", at, opened) >= 0:
        return None
    if future:
        if colon - opened < 2 or text.find(b"=", opened, colon) >= 0:
            return None  # `():` already, or a default (a `=` in the annotation: kept too)
        return opened, colon  # `) -> annotation` goes too
    arrow = text.find(b"->", opened, colon)
    closed = text.rfind(b")", opened, arrow if arrow >= 0 else colon)
    if closed <= opened or text.find(b"=", opened, closed) >= 0 or \
            text.find(b":", opened, closed) >= 0:
        return None  # `()` already, a default (or a walrus in one), an evaluated annotation
    return opened, closed


def def_spans(source: bytes) -> dict[int, tuple[int, int, int]] | None:
    """line of a def -> (offset of its line in `source`, offset of the newline after its
    body, its indentation), for every def whose body skim would cut (none inside another);
    None when the scanner could not read the source surely."""
    text = masked(source)
    if text is None:
        return None
    # text[i] is source[i - 1]: the def line opens at source[start], the body ends before
    # source[end - 1]
    return {line: (start, end - 1, indent)
            for start, _, end, indent, line, _ in _bodies(b"\n" + text)}


def _bodies(text: bytes):
    """(start, eol, end, indent, line, (name, colon)) of each def whose body can be cut, in
    order, none inside another's body: text[start] is the newline before the def's line
    (number `line`), text[name] where its name starts (blanks may come first), text[colon]
    the colon that ends its header, text[eol] the newline after it, text[end] the one before
    the next statement at its indentation or less (or end == len(text))."""
    done = 0  # no def before this offset: inside a body found already
    line, line_at = 1, 0  # line number of offset line_at
    count = text.count
    for match in _DEF.finditer(text):
        start = text.rfind(b"\n", 0, match.start())  # before the def line: source[start] opens it
        if start < done:
            continue  # inside a body already found
        before = text[start + 1:match.start()]
        indent = len(before) - len(before.lstrip(b" "))
        if indent < len(before) and not _ASYNC.fullmatch(before):
            continue  # `def` not at the start of its line: a name, or inside brackets
        eol = text.find(b"\n", match.end())
        if eol < 0:
            break  # a def on the last line has no body on lines of its own
        header = text[match.end():eol].rstrip()
        colon = match.end() + len(header) - 1
        if not (header.endswith(b":") and header.count(b"(") == header.count(b")") and
                header.count(b"[") == header.count(b"]") and
                header.count(b"{") == header.count(b"}")):
            # not a one-line header `def f(a: int) -> X:` (where the last colon ends it)
            colon = _header_end(text, match.end())
            if colon < 0:
                continue
            eol = text.find(b"\n", colon)
            if eol < 0 or text[colon + 1:eol].strip():
                continue  # `def f(): ...` on one line: nothing worth cutting
        found = _dedent(indent).search(text, eol)
        end = found.start() if found is not None else len(text)
        if end <= eol or text[end - 1] == 92 or count(b"(", eol, end) != count(b")", eol, end) \
                or count(b"[", eol, end) != count(b"]", eol, end) \
                or count(b"{", eol, end) != count(b"}", eol, end):  # 92: "\\"
            continue  # the next statement line at this indentation is a continuation
        line += count(b"\n", line_at, start)
        line_at = start
        yield start, eol, end, indent, line, (match.end(), colon)
        done = end - 1


def _header_end(text: bytes, at: int) -> int:
    """Offset of the colon that ends the def header starting at `at`, or -1."""
    depth = 0
    for found in _HEADER.finditer(text, at):
        char = found.group()
        if char == b":":
            if depth == 0:
                return found.start()
        elif char in _OPEN:
            depth += 1
        else:
            depth -= 1
            if depth < 0:
                return -1
    return -1


# statements without a block of their own (most of a module's): nothing to look into
_SIMPLE = frozenset(getattr(ast, name) for name in (
    "Assign", "AnnAssign", "AugAssign", "Expr", "Import", "ImportFrom", "Pass", "Return", "Raise",
    "Assert", "Delete", "Global", "Nonlocal", "Break", "Continue", "TypeAlias")
    if hasattr(ast, name))


def cuts_hold(tree: ast.Module, cuts: tuple[tuple[int, int], ...]) -> bool:
    """Does every cut show in the parsed tree as a def on its line whose body is the single
    `pass` on the line the cut put it?"""
    defs: dict[int, ast.AST] = {}
    stack: list = list(tree.body)
    while stack:
        node = stack.pop()
        cls = node.__class__
        if cls in _SIMPLE:
            continue
        if cls is ast.FunctionDef or cls is ast.AsyncFunctionDef:
            defs[node.lineno] = node
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            stack.extend(getattr(node, field, ()) or ())
    for def_line, pass_line in cuts:
        node = defs.get(def_line)
        if node is None or len(node.body) != 1:
            return False
        body = node.body[0]
        if body.__class__ is not ast.Pass or body.lineno != pass_line:
            return False
    return True


__all__ = ["skim", "masked", "cuts_hold"]
