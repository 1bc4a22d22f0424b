import signal
import lz_signal
print(getattr(signal.getsignal(signal.SIGUSR1), '__name__', signal.getsignal(signal.SIGUSR1)))
