# a dict display passed as an argument: the called function tests its keys and values
# (ca.two reads ca.probe's READY while ca.probe runs: here it never runs, the test is false)
def _configure(options):
    if "legacy" in options:
        from . import probe
    if options.get("mode") == "fast":
        from . import one


_configure({"mode": "fast", "level": 2})
DONE = True
