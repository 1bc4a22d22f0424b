import os

os.environ.setdefault('LZ_ENVIRON_MODE', 'fast')
