import jx

DECODER = jx.decoder.JSONDecoder
