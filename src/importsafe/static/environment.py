"""Reads of installed dependency versions and of environment variables by pure code, in the
Simulator: `dep.__version__`, `dep.VERSION`, `importlib.metadata.version("dist")`,
`packaging.version.parse(...)`, `os.environ.get(...)` in an `if` test, a value pure code
computes or an analysed pure function it calls (purefn's `versions` and `environment`). An
analysed module's attribute is read from its namespace; an external one's version comes
from its files (installed.Versions) and a variable from the ones given (--env, every other
unset); the outcome then rests on it: an Assumption of kind "version" or "environment".
Mixed into the Simulator."""
from __future__ import annotations

from ..model import Assumption
from .events import Import, ImportFrom, walk
from .frames import Frame_, SimError, SimUnknown
from .installed import version_why
from .purefn import NoValue, Release
from .state import OPAQUE

METADATA_VERSION = frozenset({"importlib.metadata.version", "importlib_metadata.version"})
PARSE_VERSION = frozenset({"packaging.version.parse", "packaging.version.Version",
                           "pkg_resources.parse_version"})


# the handler classes that catch ModuleNotFoundError
_CATCH_ABSENT = frozenset({"ModuleNotFoundError", "ImportError", "Exception", "BaseException"})


class OrdinaryEnvironment:
    """What the analysed code reads of its environment, and the assumptions it rests on."""

    def import_absent(self, name: str, line: int, frame) -> None:
        """An import of the external module `name` in the body of a `try` of this frame
        whose handler for ModuleNotFoundError falls back without raising (an optional
        dependency): raise it when `name`'s top-level package is installed nowhere
        (installed.Versions.installed), an Assumption of kind "installed". Elsewhere, and
        where the handler raises its own error (a required dependency), an external module
        is taken to import fine, as in the environment the package is meant to run in."""
        versions = self.program.versions
        if not frame.guards or versions is None or not _caught(frame.guards):
            return
        top = name.partition(".")[0]
        if versions.installed(top) is not False:
            return
        st = frame.module
        self.assume(Assumption(st.name, top, st.info.path, line, versions.absent_why(top),
                               "installed"))
        raise self.error("ModuleNotFoundError", top, None, f"No module named '{top}'")

    def assume_environment(self, variables, line: int, frame) -> None:
        """A test decided by environment variables: the outcome rests on their values."""
        st = frame.module
        for name, value in variables:
            why = f"environment variable {name} taken as unset" if value is None else \
                f"environment variable {name} taken as {value!r} (--env)"
            self.assume(Assumption(st.name, name, st.info.path, line, why, "environment"))

    def pure_version(self, scope, name: str, attrs: tuple, args):
        """purefn's `versions` callback: what a version read gives (a str or a Release)."""
        frame = scope if scope.__class__ is Frame_ else Frame_("module", scope)
        st = frame.module
        if frame.kind == "function" and name in frame.local_names:
            raise NoValue("a local")
        if args is None:  # `name.attrs`, its last attribute a version's
            try:
                value = self.resolve(name, attrs, frame)
            except (SimError, SimUnknown) as err:
                raise NoValue("an attribute read that fails") from err
            if value[0] == "lit" and value[1].__class__ is str:
                return value[1]  # an analysed module's literal
        origin = self._imported_as(st.name, name)
        if origin is None or not self.is_external(origin) or \
                self.lookup_quiet(name, frame) not in (OPAQUE, ("std", origin)):
            raise NoValue("not a read of an installed package")
        dotted = ".".join((origin, *attrs))
        versions = self.program.versions
        if args is None:
            module, _, attr = dotted.rpartition(".")
            found = versions.of_module(module, attr) if versions is not None else None
            distribution = False
        elif dotted in PARSE_VERSION and len(args) == 1:
            return Release.parse(args[0])
        elif dotted in METADATA_VERSION and len(args) == 1 and args[0].__class__ is str:
            dotted = args[0]
            found = versions.of_distribution(dotted) if versions is not None else None
            distribution = True
        else:
            raise NoValue("a call of an installed package")
        if found is None and distribution and versions is not None and \
                self.program.index.get(dotted) is None and \
                not self._imports_top(st.name, dotted.replace("-", "_").lower()):
            # no *.dist-info of it on the roots or in site-packages: not installed, and
            # importlib.metadata raises (torch's `except PackageNotFoundError:` for optree)
            self.assume(Assumption(st.name, dotted, st.info.path, st.line,
                                   f"distribution {dotted} taken as not installed (no "
                                   "metadata on the source roots or in site-packages)",
                                   "version"))
            raise self.error("PackageNotFoundError", None, None,
                             f"No package metadata was found for {dotted}")
        if found is None:
            raise NoValue("a version not found")
        self.assume(Assumption(st.name, dotted, st.info.path, st.line,
                               version_why(dotted, found, distribution), "version"))
        return found[0]

    def pure_environment(self, scope, name: str, record: bool = True):
        """purefn's `environment` callback: the value of variable `name` (None: unset),
        when `os` is the os module here; the outcome rests on it (with `record`)."""
        frame = scope if scope.__class__ is Frame_ else Frame_("module", scope)
        st = frame.module
        if (frame.kind == "function" and "os" in frame.local_names) or \
                self._imported_as(st.name, "os") != "os" or \
                self.lookup_quiet("os", frame) not in (OPAQUE, ("std", "os")):
            raise NoValue("not the os module")
        value = dict(self.program.env).get(name)
        if record:
            self.assume_environment(((name, value),), st.line, frame)
        return value

    def quiet_environment(self, scope, name: str):
        return self.pure_environment(scope, name, record=False)

    def _imports_top(self, module: str, top: str) -> bool:
        """Does `module` import `top` (or a submodule of it) anywhere? Then it is assumed
        importable, as external modules are, and so installed: no PackageNotFoundError."""
        facts = self.program.facts.get(module)
        return any(ev.__class__ in (Import, ImportFrom) and ev.module is not None and
                   ev.module.partition(".")[0].lower() == top
                   for ev in walk(facts.body if facts is not None else (), classes=True,
                                  functions=True))

    def lookup_quiet(self, name: str, frame):
        try:
            return self.lookup(name, frame)
        except (SimError, SimUnknown):
            return None

    def _imported_as(self, module: str, name: str) -> str | None:
        """The dotted name a module-level import in `module` binds `name` to (`import a.b`:
        a; `import a.b as c`: a.b; `from a import b as c`: a.b), or None."""
        memo = self.program.import_origins
        key = (module, name)
        if key not in memo:
            found = None
            facts = self.program.facts.get(module)
            for ev in walk(facts.body if facts is not None else ()):
                cls = ev.__class__
                if cls is Import and ev.call is None:
                    if ev.asname == name:
                        found = ev.module
                    elif ev.asname is None and ev.module.partition(".")[0] == name:
                        found = name
                elif cls is ImportFrom and ev.error is None:
                    for n, asname in ev.names:
                        if (asname or n) == name and n != "*":
                            found = f"{ev.module}.{n}"
                if found is not None:
                    break
            memo[key] = found
        return memo[key]


def _caught(guards) -> bool:
    """Does the innermost of the running `try` bodies that decides it catch
    ModuleNotFoundError, with a handler that raises nothing (a fallback, not a required
    dependency's own message)? False where a handler's classes are not known."""
    from .simulate import _KNOWN_EXC
    for ev in reversed(guards):
        for handler in ev.handlers:
            if handler.types is None or not _CATCH_ABSENT.isdisjoint(handler.types):
                return not handler.raises
            if any(t not in _KNOWN_EXC for t in handler.types):
                return False
    return False
