"""Rule codes: each diagnostic's code, readable name, severity, one-line summary and its
documentation (what/why/example/fix), from which docs/rules/CODE.md and `importsafe rule CODE`
are rendered (report/rules.py). Every stage names them, so they sit low, beside model."""
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
    Rule("IS001", "syntax-error", "error", "a file does not parse",
         what="A file under the checked paths does not parse, including a bad "
              "`# -*- coding: -*-` cookie (CPython reports that as `SyntaxError` too).",
         why="Importing the module raises `SyntaxError`, in every order; nothing it would "
             "import can be analysed through it.",
         example="```python\nX = (\n```",
         fix="Make the file parse. **Safe automatic fix:** none."),
    Rule("IS002", "undecodable-source", "error", "a file is not valid text in its encoding",
         what="The bytes of a file could not be decoded to text in its declared (or the "
              "default UTF-8) encoding.",
         why="Importing the module raises `SyntaxError`, in every order.",
         example="A file saved as Latin-1 with `café` in a string and no coding cookie.",
         fix="Save the file as UTF-8, or declare its encoding. **Safe automatic fix:** none."),
    Rule("IS003", "unreadable-path", "error", "a file or directory cannot be read",
         what="A file or directory could not be read: permissions, a dangling symlink, or a "
              "symlink loop (a directory reached twice). The rest of the tree is still "
              "analysed; an entry that needs the unreadable file is reported `unknown`.",
         why="That part of the package is not checked.",
         example="`pkg/sub/loop -> ..`",
         fix="Remove the loop or the dangling link, or fix the permissions. "
             "**Safe automatic fix:** none."),
    Rule("IS004", "undecidable-outcome", "info",
         "the outcome depends on something static analysis cannot follow",
         what="importsafe cannot decide the outcome statically and answers `unknown` rather "
              "than guess. The reason says why: a module-level `__getattr__` (PEP 562) that "
              "may answer for a name, `exec()` / `globals().update()`, a failure inside an "
              "`if` whose condition depends on run-time values, an `except` clause naming a "
              "non-built-in exception, a module that may be put into `sys.modules` at run "
              "time, an unreadable file.",
         why="The order may or may not fail; the report cannot say which.",
         example="```python\nif os.environ.get(\"FAST\"):\n    from ._speedups import X  "
                 "# inside an import cycle\n```",
         fix="Run `importsafe run` (or `importsafe check --verify`) to decide it for real, or "
             "make the code statically clearer. **Safe automatic fix:** none needed."),
    Rule("IS101", "import-from-partial-module", "error",
         "`from M import name` runs while M is partially initialised and has not bound name",
         what="`from M import name` ran while `M` was still executing (partially "
              "initialised) and had not bound `name` yet. CPython: `ImportError: cannot "
              "import name 'name' from partially initialized module 'M' (most likely due to "
              "a circular import)`.",
         why="The import works in the order your tests use and fails when another module of "
             "the cycle is imported first: a user importing it directly, lazy imports "
             "(PEP 810), a refactored `__init__.py`.",
         example="```python\n# pkg/backend_api.py\nfrom .program._fake_program import "
                 "FakeProgram   # runs program/__init__ -> _program\nclass Spec: ...\n\n"
                 "# pkg/program/_program.py\nfrom ..backend_api import Spec                  "
                 "  # backend_api has not bound Spec yet\ndef spec_for(): return Spec()\n```",
         fix="Defer the import into the function(s) that use the name (`spec_for` here), or "
             "move it under `if TYPE_CHECKING:` when only unevaluated annotations use it, or "
             "both. **Safe automatic fix:** yes, when every use of the names is inside "
             "function bodies or in annotations never evaluated at import time; "
             "`importsafe fix` re-simulates every (entry, mode) before it shows or writes the "
             "edit, and reports the modules a package no longer loads because of it."),
    Rule("IS102", "attribute-of-partial-module", "error",
         "an attribute of a module is read at import time before the module has bound it",
         what="Code that runs at import time read `M.attr` (or `pkg.sub`) before it was "
              "bound: `M` was partially initialised, or `pkg.sub` was still executing "
              "(\"cannot access submodule\"), or the submodule was never imported. CPython "
              "raises `AttributeError`.",
         why="As for IS101: the read works in one import order and fails in another.",
         example="`import pkg.a` and then, at module level, `X = pkg.a.VALUE`, while `pkg.a` "
                 "is importing this module.",
         fix="Move the attribute read into a function, or reorder so the module finishes "
             "first. **Safe automatic fix:** when the import statement's names are only used "
             "in functions, the import is deferred as for IS101; a module-level read itself "
             "is never moved."),
    Rule("IS103", "name-used-before-bound", "error",
         "a name is read at import time before anything bound it",
         what="A name was read at import time before anything bound it: typically a function "
              "defined in module `A`, called back by `B` while `A` is half-run, reading a "
              "global that `A` binds only later; or an evaluated annotation naming a "
              "`TYPE_CHECKING`-only import. CPython raises `NameError`.",
         why="The failure depends on which module runs first, or is permanent.",
         example="```python\n# pkg/a.py\ndef helper(): return LATER\nfrom . import b\nLATER = "
                 "1\n\n# pkg/b.py\nfrom .a import helper\nhelper()\n```",
         fix="Bind the name before the import that starts the cycle, defer the call, or add "
             "`from __future__ import annotations`. **Safe automatic fix:** none (it would "
             "reorder code)."),
    Rule("IS104", "module-not-found", "error", "an import names a module that does not exist",
         what="An import names a module of the analysed package that does not exist "
              "(`ModuleNotFoundError`). Modules outside the analysed source roots are assumed "
              "importable and are never reported.",
         why="The import always fails.",
         example="`import pkg.nosuch`",
         fix="Correct the name or add the module. **Safe automatic fix:** none."),
    Rule("IS105", "name-missing-from-module", "error",
         "`from M import name` against a module that never binds name in this order",
         what="`from M import name` against a module that finished without binding `name`, "
              "or, in `bare` mode, a package whose `__init__.py` never ran.",
         why="In `bare` mode this is the classic \"submodule relies on its package's "
             "`__init__` having run\": it breaks as soon as the submodule is imported first, "
             "for example lazily.",
         example="`from . import helper` in `pkg/mod.py`, where `helper` is defined in "
                 "`pkg/__init__.py`.",
         fix="Import the name from the module that defines it. **Safe automatic fix:** none."),
    Rule("IS106", "module-fails-to-parse", "error", "a module on the import chain does not parse",
         what="A module on the import chain has IS001: importing it raises `SyntaxError`.",
         why="Every first import whose chain reaches that module fails.",
         example="`pkg/__init__.py` imports `pkg.broken`, whose `X = (` never closes.",
         fix="Make the file parse. **Safe automatic fix:** none."),
    Rule("IS107", "import-error", "error", "another exception escapes the first import",
         what="Another exception escapes the first import: an explicit `raise` at module "
              "level, a failing `assert`, a relative import that climbs above the top-level "
              "package.",
         why="The module cannot be imported in that order.",
         example="`assert os.name == \"nt\"` at module level, on Linux.",
         fix="Depends on the exception. **Safe automatic fix:** none."),
    Rule("IS108", "side-effect-import-skipped-when-lazy", "warning",
         "an import whose name is never read: under PEP 810 lazy imports its module never "
         "runs",
         what="Reported by `check` when mode `lazy` is checked. A module-level import binds a "
              "name the module never reads (`import myapp.plugins.csv  # registers the "
              "reader`). Under PEP 810 lazy imports (`-X lazy_imports=all` on Python 3.15+) "
              "such an import binds a proxy and loads the module only when the name is read: "
              "the module never runs.",
         why="Whatever the module does when it runs (registering a plugin, patching a "
             "library, setting up logging) silently stops happening under lazy mode; nothing "
             "fails.",
         example="`import myapp.handlers` in `myapp/__init__.py`, where `handlers.py` "
                 "decorates functions with `@register` and nothing reads `myapp.handlers`.",
         fix="Make the dependency explicit: call a function of the module "
             "(`handlers.setup()`), or keep the import eager by putting it inside a `try:` "
             "block or a function the module calls (PEP 810 never makes those lazy). "
             "**Safe automatic fix:** none."),
    Rule("IS109", "lazy-import-fails", "error",
         "making this import lazy makes a first import that works today fail",
         what="`importsafe lazy-plan` made the import statement lazy (PEP 810) together with "
              "the rest of the plan, re-simulated every first import, and one that works today "
              "failed: the statement is a lazy declaration on the failure's chain, or it ran "
              "first a module on that chain (the order it gave is what the failure lacks). "
              "In mode bare, where the package's `__init__` never runs, it is a lazy "
              "statement that a module on the chain reached before its line there.",
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
    Rule("IS115", "lazy-namespace-read-raw", "warning",
         "code that runs while the module is imported reads its namespace without resolving "
         "lazy imports, and would find this import's names unresolved",
         what="After the statement, and before anything reads a name it binds, import-time "
              "code reads the module's namespace directly: a function it calls inspects the "
              "caller's frame (`sys._getframe()`, `inspect.currentframe()`, `f_back`, "
              "`f_locals`, `f_globals`), or the module reads `globals()` / `vars()` / "
              "`locals()` values. PEP 810 resolves a lazy import when its name is read as a "
              "name, not through those: they return the lazy object itself.",
         why="The code gets a `types.LazyImportType` instead of the object: an attribute "
             "error, a failed `isinstance`, or a name silently skipped (`multipledispatch`'s "
             "`@dispatch` looks up the function it extends in the caller's `f_locals`).",
         example="`from .handlers import union_sets` followed by `@dispatch(A, B) def "
                 "union_sets(self, o)`, whose decorator reads `union_sets` from the caller's "
                 "`f_locals` to add to it.",
         fix="Keep the statement eager (the plan does), or read the name before the code "
             "that inspects the namespace. **Safe automatic fix:** the plan leaves it eager."),
    Rule("IS201", "static-dynamic-disagreement", "error",
         "the static prediction and the real import disagree on (outcome, exception, module, "
         "name)",
         what="`importsafe check --verify` ran the same (entry, mode) statically and for "
              "real, and the two disagree on (outcome, exception, module, name). Both "
              "outcomes are shown.",
         why="Either the static model misses a construct (please report it with both "
             "outcomes), or the code depends on something outside the analysed roots.",
         example="A dependency that is not installed: static analysis assumes it imports.",
         fix="Install the dependency, or report the construct. **Safe automatic fix:** none."),
    Rule("IS202", "static-no-claim", "info",
         "static analysis answered unknown; the real import's outcome is shown",
         what="Static analysis answered `unknown` (IS004) for an (entry, mode) that "
              "`check --verify` also ran for real; the real outcome is shown.",
         why="Informational: the real run decides what static analysis could not.",
         example="An `if` on `os.environ` around an import inside a cycle.",
         fix="None needed. **Safe automatic fix:** none needed."),
    Rule("IS203", "external-assumption", "info",
         "the real import fails because a module outside the source roots does not import or "
         "lacks a name, or a submodule of an extension module is missing, which static "
         "analysis assumes it does not (a static failure further along cannot be checked "
         "then)",
         what="The real import fails in a module outside the source roots, which static "
              "analysis assumes importable (in site-packages: a package of another "
              "distribution); on a submodule of a compiled extension module, which static "
              "analysis assumes the extension may register; on a name a compiled module of "
              "the analysed code lacks; inside an external module's own code; or at a "
              "statement importing a compiled module of the analysed code. Static analysis "
              "predicted success, or a failure that comes only after that import: the real "
              "run stopped first, so that prediction cannot be checked until the module is "
              "installed.",
         why="Not an import-order problem of the analysed code.",
         example="`ModuleNotFoundError: No module named 'pyglet'`",
         fix="Install the missing dependency. **Safe automatic fix:** none."),
    Rule("IS204", "import-timeout", "error", "the first import did not finish in time",
         what="The real first import did not finish within `--timeout` seconds.",
         why="Import-time work that hangs blocks every user of the module.",
         example="A network call or `while True:` at module level.",
         fix="Move the work out of import time. **Safe automatic fix:** none."),
    Rule("IS205", "import-crash", "error",
         "the interpreter died during the first import (signal or exit)",
         what="The interpreter died during the first import: a signal such as SIGSEGV or "
              "SIGABRT, or `os._exit`.",
         why="A crash at import time takes the whole process down.",
         example="`ctypes.string_at(0)` at module level.",
         fix="Fix the extension or the call. **Safe automatic fix:** none."),
    Rule("IS206", "run-time-failure", "info",
         "the real import raised an exception of run-time values (configuration, environment, "
         "native libraries), which static analysis does not evaluate",
         what="The real first import raised an exception that the import system does not "
              "raise: it comes from run-time values, such as Django's `ImproperlyConfigured` "
              "when no settings are configured, a native library that cannot be loaded, a "
              "`KeyError` in a registry, an `ImportError` the code raises itself naming no "
              "module, or an `AttributeError` of an object that is no module. Reported when "
              "static analysis predicted success, or a failure only further along the same "
              "chain.",
         why="Usually not an import-order problem: the module fails this way in every order, "
             "in this environment. It can be one that static analysis cannot see, when the "
             "value depends on what was imported before (`sys.modules[\"pkg.mod\"]` read "
             "before `pkg.mod` was imported raises `KeyError`): read the message.",
         example="`django.core.exceptions.ImproperlyConfigured: Requested setting "
                 "INSTALLED_APPS, but settings are not configured.`",
         fix="Configure the environment the module expects (settings, libraries). "
             "**Safe automatic fix:** none."),
    Rule("IS207", "assumption-does-not-hold", "warning",
         "the real import fails on a name that static analysis took as bound by the "
         "ordinary-order rule",
         what="Static analysis took a name as bound because it was read from a module that "
              "had finished running and may bind names dynamically (`exec`, `globals()[k]` "
              "with keys from run-time data): the ordinary-order rule, listed in the "
              "result's `assumes`. The real import fails on exactly that name of that "
              "module.",
         why="The module does not bind the name in any import order, the package's own "
             "included, so the read fails whatever is imported first: a plain bug rather "
             "than an import-order one, which only running the code shows.",
         example="`from pkg.table import ROW_9`, where `pkg.table` binds `ROW_<n>` in a loop "
                 "over a file it reads, and the file has eight rows.",
         fix="Bind the name (or stop reading it); `check --strict` reports such reads as "
             "unknown instead. **Safe automatic fix:** none."),
    Rule("IS208", "loaded-at-startup", "info",
         "the interpreter imported the module before the probe ran, so its first import "
         "cannot be run; the static prediction is not checked",
         what="`check --verify` could not run the first import of the entry: the interpreter "
              "had imported it (or an ancestor package) while starting, before any job ran, "
              "most often through a `.pth` file in site-packages (setuptools' "
              "`distutils-precedence.pth` imports `_distutils_hack`) or `sitecustomize`. The "
              "real run reports it as a crash; the static prediction stands unchecked.",
         why="Not a disagreement: in this environment no import order runs the module "
             "first, so there is nothing to compare the prediction with.",
         example="`_distutils_hack` in a venv with setuptools installed.",
         fix="None needed; to check the module for real, run the interpreter with `-S` or "
             "without the `.pth` file. **Safe automatic fix:** none."),
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
    Rule("IS401", "module-no-longer-loaded", "error",
         "`import pkg` no longer loads a module that code reads as its attribute",
         what="Reported by `importsafe diff BASE HEAD`: in BASE, `import pkg` loaded "
              "`pkg.sub`; in HEAD it does not, and HEAD code reads `pkg.sub` as an attribute "
              "without importing it (it worked only because another import loaded it).",
         why="The change breaks that reader with `AttributeError: module 'pkg' has no "
             "attribute 'sub'`, in every import order, the package's own included.",
         example="```python\n# pkg/diagnostics.py\nimport pkg\ndef strict_check():\n    return "
                 "pkg.verifier.Verifier()   # pkg.verifier was loaded by pkg/__init__ before\n```",
         fix="Import the module where it is read (`import pkg.verifier`), or keep the import "
             "that loaded it. `importsafe fix` holds back an edit that causes this unless "
             "`--unsafe-fixes`."),
    Rule("IS402", "name-no-longer-bound", "error",
         "a module no longer binds a name that it bound before",
         what="Reported by `importsafe diff BASE HEAD`: a name bound at the top level of a "
              "module in BASE is not bound in HEAD, and it is not merely an import the change "
              "moved that nothing imports from there.",
         why="Code that does `from module import name` or reads `module.name` breaks with "
             "ImportError or AttributeError.",
         example="```python\n# BASE: pkg/api.py\nfrom .core import Engine\n# HEAD: the import "
                 "moved into a function, while tests/test_api.py still does\n"
                 "from pkg.api import Engine\n```",
         fix="Import the name from where it is defined, or keep binding it (a re-export)."),
    Rule("IS403", "module-removed", "error", "a module of BASE no longer exists in HEAD",
         what="Reported by `importsafe diff BASE HEAD`: a module that BASE had is gone.",
         why="Every import of it, inside or outside the repository, fails with "
             "ModuleNotFoundError.",
         example="`pkg/compat.py` deleted while a dependent project still does "
                 "`import pkg.compat`.",
         fix="Keep a module of that name that re-exports the new location, or announce the "
             "removal."),
)}
