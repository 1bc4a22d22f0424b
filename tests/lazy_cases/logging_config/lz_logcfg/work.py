import logging

log = logging.getLogger(__name__)

def work():
    log.info('working')
    return 'done'
