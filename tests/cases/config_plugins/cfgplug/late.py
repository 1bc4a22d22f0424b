LATE = 1

from .manage import load  # noqa: E402

ORDER = {"late": ["delta"]}


def _each(names):
    for name in names:
        load(name)  # delta's section is in delta_impl.ini: the module is delta_impl


_each(ORDER["late"])
