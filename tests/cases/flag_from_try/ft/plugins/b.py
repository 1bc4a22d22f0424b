from ft.plugins.a import NOT_THERE  # would fail
