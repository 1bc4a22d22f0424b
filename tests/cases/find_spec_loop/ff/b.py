import importlib.util

# a loop over a display with `*` items, a comprehension whose `if` calls find_spec per value
# (matplotlib's test_backends_interactive)
for deps, env in [
        *[([name], {"BACKEND": name}) for name in ["json", "ff.plug.x"]],
        (["os", "ff.plug"], {"BACKEND": "os"}),
]:
    missing = [dep for dep in deps if not importlib.util.find_spec(dep)]

LATE = 1
