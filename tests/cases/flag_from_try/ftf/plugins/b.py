from ftf.plugins.a import NOT_THERE  # would fail
