# the folded test is true: the import under it runs, and fails by the cycle
MODE = "Fast".lower()

if MODE == "fast" and not MODE.startswith("slow"):
    from cfold.fast import SPEED  # noqa: F401

NAME = MODE
