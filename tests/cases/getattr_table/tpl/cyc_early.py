from tpl.cyc import FILE  # noqa: F401  (tpl.cyc has no __getattr__ yet)


def helper():
    return FILE
