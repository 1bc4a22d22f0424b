"""The effect engine's memo of function bodies run at import time: a body run once stands
for later calls only where it would do the same (deep enough, any caller it does not test)."""
from importsafe.api import load
from importsafe.lazyplan import apply
from importsafe.lazyplan.table import table


def effects_of(root):
    loaded = load([str(root)], jobs=1, per_tree=apply._scan_parsed)
    sources, _ = apply._sources(loaded.program.index)
    scans, words = apply._scans(loaded.program, sources, 1, loaded.extras)
    return apply._effects(loaded.program, sources, table(None), scans, words).effects


def _write(root, files):
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


CHAIN = {
    "pk/__init__.py": "",
    "pk/reg.py": "REG = []\n\n\ndef add(x):\n    REG.append(x)\n",
    "pk/deep.py": "from .reg import add\n\n\n"
                  + "".join(f"def l{i}(x):\n    l{i + 1}(x)\n\n\n" for i in range(1, 5))
                  + "def l5(x):\n    add(x)\n",
}


def test_a_body_cut_short_deep_down_is_run_again_when_called_from_the_top(tmp_path):
    _write(tmp_path, {**CHAIN, "pk/a.py": "from . import deep\n\ndeep.l1(1)\ndeep.l5(1)\n"})
    found = effects_of(tmp_path / "pk")
    assert [e.line for e in found["pk.a"] if e.state == ("pk.reg", "REG")] == [4]


def test_a_body_run_for_one_module_serves_another_unless_it_tests_the_caller(tmp_path):
    _write(tmp_path, {**CHAIN,
                      "pk/a.py": "from . import deep\n\ndeep.l5(1)\n",
                      "pk/b.py": "from . import deep\n\ndeep.l5(1)\n",
                      # the same body run for the module that owns REG changes nothing outside
                      "pk/reg2.py": "from .reg import REG\nfrom . import deep\n\ndeep.l5(1)\n"})
    found = effects_of(tmp_path / "pk")
    for module in ("pk.a", "pk.b", "pk.reg2"):
        assert [e.state for e in found[module]] == [("pk.reg", "REG")], module
    _write(tmp_path, {"pk/reg.py": CHAIN["pk/reg.py"] + "\nfrom . import deep\n\ndeep.l5(1)\n"})
    assert [e.state for e in effects_of(tmp_path / "pk")["pk.reg"]] == []
