import signal

def _on_usr1(signum, frame):
    pass

signal.signal(signal.SIGUSR1, _on_usr1)
