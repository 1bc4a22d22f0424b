"""Rule codes: each diagnostic's code, readable name, severity and one-line summary.
Every stage names them, so they sit low, beside model (docs/rules.md documents them)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    name: str
    severity: str
    summary: str
    # the rule's documentation page (docs and `importsafe rule CODE`), Markdown
    what: str = ""  # what it does / what it means
    why: str = ""  # why is this bad
    example: str = ""
    fix: str = ""  # how to fix it, and whether `importsafe fix` applies that fix safely


RULES: dict[str, Rule] = {r.code: r for r in (
    Rule("IS001", "syntax-error", "error", "a file does not parse"),
    Rule("IS002", "undecodable-source", "error", "a file is not valid text in its encoding"),
    Rule("IS003", "unreadable-path", "error", "a file or directory cannot be read"),
    Rule("IS004", "undecidable-outcome", "info",
         "the outcome depends on something static analysis cannot follow"),
    Rule("IS101", "import-from-partial-module", "error",
         "`from M import name` runs while M is partially initialised and has not bound name"),
    Rule("IS102", "attribute-of-partial-module", "error",
         "an attribute of a module is read at import time before the module has bound it"),
    Rule("IS103", "name-used-before-bound", "error",
         "a name is read at import time before anything bound it"),
    Rule("IS104", "module-not-found", "error", "an import names a module that does not exist"),
    Rule("IS105", "name-missing-from-module", "error",
         "`from M import name` against a module that never binds name in this order"),
    Rule("IS106", "module-fails-to-parse", "error", "a module on the import chain does not parse"),
    Rule("IS107", "import-error", "error", "another exception escapes the first import"),
    Rule("IS108", "side-effect-import-skipped-when-lazy", "warning",
         "an import whose name is never read: under PEP 810 lazy imports its module never "
         "runs"),
    Rule("IS201", "static-dynamic-disagreement", "error",
         "the static prediction and the real import disagree on (outcome, exception, module, "
         "name)"),
    Rule("IS202", "static-no-claim", "info",
         "static analysis answered unknown; the real import's outcome is shown"),
    Rule("IS203", "external-assumption", "info",
         "the real import fails because a module outside the source roots does not import or "
         "lacks a name, or a submodule of an extension module is missing, which static "
         "analysis assumes it does not (a static failure further along cannot be checked "
         "then)"),
    Rule("IS204", "import-timeout", "error", "the first import did not finish in time"),
    Rule("IS205", "import-crash", "error",
         "the interpreter died during the first import (signal or exit)"),
    Rule("IS206", "run-time-failure", "info",
         "the real import raised an exception of run-time values (configuration, environment, "
         "native libraries), which static analysis does not evaluate"),
    Rule("IS301", "unknown-code-in-suppression", "error",
         "a `# importsafe: ignore[...]` comment names a code that is no importsafe rule",
         what="Reports each code in an `# importsafe: ignore[...]` comment that is not the code "
              "of an importsafe rule (`IS` and three digits, listed in the rule reference).",
         why="A misspelt code suppresses nothing, so the failure it was meant for still fails "
             "the run, or, worse, the comment looks like a reviewed waiver while nothing was "
             "reviewed. Ruff and mypy reject unknown codes in their suppression comments for "
             "the same reason.",
         example="```python\nfrom .b import B  # importsafe: ignore[IS1O1]  (letter O, not a "
                 "zero)\n```",
         fix="Write the code the failure is reported under (`importsafe check` shows it, e.g. "
             "`IS101`), or `# importsafe: ignore` for every code. `importsafe fix` does not "
             "edit comments."),
    Rule("IS302", "unused-suppression", "warning",
         "a `# importsafe: ignore` comment suppresses nothing in this run",
         what="Reports a suppression comment (or one code of it) on a line where no checked "
              "first import fails with that code, as ruff's RUF100 does for `noqa`. Off with "
              "`--ignore IS302` (or `ignore = [\"IS302\"]`).",
         why="A suppression that no longer matches anything is left over from a failure that "
             "was fixed or moved: it will silently hide the next failure that lands on that "
             "line.",
         example="```python\nB = 2\nfrom .a import A  # importsafe: ignore[IS101]  (the cycle "
                 "was broken: nothing fails here)\n```",
         fix="Delete the comment, or the codes it lists that nothing needs. With modes or "
             "entries left out of the run (`--mode`, `--skip`), a suppression for those is "
             "reported too: check the configuration the comment was written for."),
)}
