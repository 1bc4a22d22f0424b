import logging

log = logging.getLogger(__name__)

def run():
    log.debug('run')
    return 'ran'
