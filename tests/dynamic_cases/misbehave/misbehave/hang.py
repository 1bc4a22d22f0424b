"""Never finishes importing: the runner must kill it at the timeout."""
while True:
    pass
