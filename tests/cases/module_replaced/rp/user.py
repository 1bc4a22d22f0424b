from rp import reactor

run = reactor.run  # a method of the installed object, not a name of rp/reactor.py
