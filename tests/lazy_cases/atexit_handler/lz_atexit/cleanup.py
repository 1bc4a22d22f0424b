import atexit

TEMP = []

def _goodbye():
    print('cleaned up', len(TEMP))

atexit.register(_goodbye)
