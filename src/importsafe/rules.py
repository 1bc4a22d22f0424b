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
    Rule("IS109", "lazy-import-fails", "error",
         "making this import lazy makes a first import that works today fail",
         what="`importsafe lazy-plan` made the import statement lazy (PEP 810) together with "
              "the rest of the plan, re-simulated every first import, and one that works today "
              "failed: the statement is a lazy declaration on the failure's chain, or it ran "
              "first a module on that chain (the order it gave is what the failure lacks).",
         why="Under lazy imports a module runs when a name it binds is first read, not where "
             "it is imported. A package whose `__init__` imports modules in the one order "
             "that works loses that order, and a circular import that only worked eagerly "
             "fails at the first read.",
         example="`compiler_pkg/__init__.py` imports `jit` before `optimizer` loads it; "
                 "lazily, `import compiler_pkg.optimizer` runs `optimizer` first, whose "
                 "`from .jit import JitBackend` reaches `jit` while `Optimizer` is unbound.",
         fix="Keep the statement eager (the plan does). To make it lazy, break the cycle "
             "first: `importsafe fix` defers the import that needs the name too early. "
             "**Safe automatic fix:** the plan leaves it eager."),
    Rule("IS110", "lazy-effect-lost", "warning",
         "lazily, a module this import runs would never run, and its import-time effect "
         "would be lost",
         what="The statement runs, first, a module whose import changes state that other "
              "code reads (IS114), and nothing reads a name the statement binds: under lazy "
              "imports the module is never imported, so the change never happens.",
         why="Plugin registration, monkey-patching and process configuration done by an "
             "import silently stop: the program runs on without the plugin, the patch or "
             "the setting.",
         example="`import app.plugins  # registers the plugins` in `app/__init__.py`, with "
                 "`app.registry.lookup('csv')` raising KeyError once it is lazy.",
         fix="Keep the statement eager (the plan does), or call the registration "
             "explicitly. **Safe automatic fix:** the plan leaves it eager."),
    Rule("IS111", "lazy-effect-moved", "warning",
         "lazily, a module this import runs would run only later, after code that reads "
         "the state its import changes",
         what="The statement runs, first, a module whose import changes state that other "
              "code reads (IS114). Lazily the module runs only when a name the statement "
              "binds is first read, and the reader named in the reason can run before that.",
         why="The reader sees the state without the change: a registry without the entry, "
             "a function without its patch.",
         example="`from .jit import JitBackend` in `compiler_pkg/__init__.py`: "
                 "`compiler_pkg.get_backend('jit')` reads the backend registry before "
                 "anything reads `JitBackend`, and raises LookupError.",
         fix="Keep the statement eager (the plan does), or make the reader import the "
             "module it depends on. **Safe automatic fix:** the plan leaves it eager."),
    Rule("IS112", "lazy-import-of-effectful-module", "warning",
         "the import loads a module outside the analysed code whose import itself does "
         "something (from the effect table)",
         what="The module named is listed in importsafe's effect table (or "
              "`[tool.importsafe] effects`) as one whose import changes process state "
              "(`readline`, `rlcompleter`, ...).",
         why="Lazily it is imported only when a name is read, if ever.",
         example="`import readline` for line editing in `input()`.",
         fix="Keep it eager. **Safe automatic fix:** the plan leaves it eager."),
    Rule("IS113", "lazy-order-dependent-read", "warning",
         "a module this import runs reads, while it runs, state that other modules' imports "
         "change",
         what="The module scans another module's registry (`len(REGISTRY)`, iteration, "
              "`.items()`) or calls `__subclasses__()` while it is imported, and other "
              "modules' imports add to that state.",
         why="What it finds depends on which modules ran before it; lazily it runs at "
             "another moment and finds something else.",
         example="`N_PLUGINS = len(REGISTRY)` at module level, with plugins registering "
                 "themselves in other modules.",
         fix="Read the state when it is needed (in a function) instead of at import time. "
             "**Safe automatic fix:** the plan leaves the import eager."),
    Rule("IS114", "import-time-effect", "info",
         "importing this module changes state outside its own namespace that other code "
         "reads",
         what="While it runs, the module adds to another module's registry, patches an "
              "attribute of another module or class, changes process-wide state (sys.path, "
              "sys.modules, builtins, atexit, signal handlers, warning filters, logging, "
              "codecs, copyreg, os.environ) or writes output; and something can observe it "
              "(a reader in the analysed code, process state, a public name). Effects on "
              "its own objects, and entries filed under its own objects that only a lookup "
              "by that object finds, are not reported.",
         why="A module with such an effect must be imported eagerly wherever it is first "
             "imported: `lazy-plan` keeps those statements eager (IS110, IS111).",
         example="`@register_backend class JitBackend` in `compiler_pkg/jit.py` fills "
                 "`compiler_pkg.backend_api._BACKENDS`, which `get_backend` reads.",
         fix="None needed; it explains why imports of the module stay eager. "
             "**Safe automatic fix:** none."),
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
