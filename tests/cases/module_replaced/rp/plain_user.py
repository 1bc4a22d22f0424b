import rp.reactor

listen = rp.reactor.listenTCP
