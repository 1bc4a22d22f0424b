import logging
import sys

logging.basicConfig(stream=sys.stdout, level=logging.INFO, format='%(levelname)s %(message)s')
