from .loader import Proxy

p = Proxy()
p.load()
PROXY = 1
