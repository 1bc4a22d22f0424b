from .handlers import Handler, Quiet

FILTER = Quiet()
HANDLER = Handler()
LOGS = 1
