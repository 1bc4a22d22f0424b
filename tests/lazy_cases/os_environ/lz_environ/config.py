import os

def mode():
    return os.environ.get('LZ_ENVIRON_MODE', 'unset')
